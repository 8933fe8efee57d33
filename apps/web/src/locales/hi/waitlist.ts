import type { waitlist as english } from '../en/waitlist';

export const waitlist: typeof english = {
  title: 'Hasta की वेटलिस्ट से जुड़ें',
  lead: 'जब Hasta आपके शहर में शुरू हो, तो हथेली से भुगतान करने वाले पहले लोगों में शामिल हों।',
  name: 'नाम',
  email: 'ईमेल',
  phone: 'फ़ोन नंबर',
  description: 'विवरण',
  descriptionHint: 'अपने बारे में थोड़ा बताइए: आप ग्राहक हैं, दुकानदार हैं, या कुछ और?',
  submit: 'वेटलिस्ट से जुड़ें',
  submitting: 'जोड़ा जा रहा है…',
};
