import type { auth as english } from '../en/auth';

/** Sign-in, registration and password screens (Hindi). */
export const auth: typeof english = {
  login: {
    newHere: '{{product}} पर नए हैं?',
    register: 'रजिस्टर करें',
  },
  register: {
    haveAccount: 'पहले से खाता है?',
    login: 'लॉग इन',
    username: 'यूज़रनेम',
    contact: 'ईमेल या फ़ोन नंबर',
    contactHint: 'हम इस पर 6 अंकों का पुष्टि कोड भेजते हैं।',
    sending: 'भेजा जा रहा है...',
    send: 'पुष्टि कोड भेजें',
  },
  forced: {
    title: 'नया पासवर्ड चुनें',
    reset: 'आपका पासवर्ड एक एडमिन ने रीसेट किया है।',
    firstTitle: 'स्वागत है: अपना पासवर्ड चुनें',
    first: 'यह आपका पहला साइन-इन है, स्वागत ईमेल में मिले अस्थायी पासवर्ड के साथ।',
    temporary: 'अस्थायी पासवर्ड',
    new: 'नया पासवर्ड',
    confirm: 'नए पासवर्ड की पुष्टि करें',
    saving: 'बदला जा रहा है...',
    save: 'नया पासवर्ड सहेजें',
    back: 'लॉग इन पर वापस जाएँ',
  },
};
