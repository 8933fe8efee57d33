import type { legal as english } from '../en/legal';

export const legal: typeof english = {
  privacy: {
    title: 'गोपनीयता',
    body: 'हमारी गोपनीयता नीति लिखी जा रही है और Hasta के लॉन्च से पहले इसी पेज पर प्रकाशित होगी। तब तक अपने डेटा से जुड़े किसी भी सवाल के लिए देखें',
  },
  terms: {
    title: 'शर्तें',
    body: 'सेवा की शर्तें लिखी जा रही हैं और Hasta के लॉन्च से पहले इसी पेज पर प्रकाशित होंगी। तब तक किसी भी सवाल के लिए देखें',
  },
  contactLink: 'हमारे बारे में / संपर्क',
};
