import type { demo as english } from '../en/demo';

export const demo: typeof english = {
  title: 'यह कैसे काम करता है',
  lead: 'पाँच चरणों में हथेली का स्कैन एक पूरे भुगतान तक पहुँचता है। किसी चरण पर माउस ले जाएँ या उसे फ़ोकस करें और देखें कि उसमें क्या होता है।',
  stepsLabel: 'डेमो के चरण',
  stepNumber: 'चरण {{number}}',
  current: 'मौजूदा',
  progress: '{{total}} में से चरण {{current}}',
  progressLabel: 'डेमो की प्रगति',
  firstStepHint: 'चरण 1 हथेली रजिस्ट्रेशन खोलता है।',
  start: 'डेमो शुरू करें',
  simulate: 'स्कैन आज़माएँ',
  reset: 'रीसेट करें',
  waitlist: 'वेटलिस्ट से जुड़ें',
  waitlistLead: 'क्या आप अपने शहर में हथेली से भुगतान चाहते हैं?',
};
