import type { app as english } from '../en/app';

/** Texts of the app's shared parts (Hindi). */
export const app: typeof english = {
  codeChannel: {
    sms: 'SMS OTP',
    email: 'ईमेल OTP',
  },
  actions: {
    retry: 'फिर कोशिश करें',
    copy: 'कॉपी करें',
    cancel: 'रद्द करें',
  },
  camera: {
    tryAgain: 'कैमरा फिर से आज़माएँ',
  },
  changePassword: {
    title: 'पासवर्ड बदलें',
    current: 'मौजूदा पासवर्ड',
    new: 'नया पासवर्ड',
    confirm: 'नए पासवर्ड की पुष्टि करें',
    submit: 'पासवर्ड बदलें',
    submitting: 'बदला जा रहा है...',
  },
  stepUp: {
    heading: 'पुष्टि करें कि यह आप हैं',
    send: 'कोड भेजें',
    sending: 'भेजा जा रहा है...',
    sentTo: '{{to}} पर भेजा गया।',
    code: '6 अंकों का कोड',
    verify: 'पुष्टि करें',
    verifying: 'पुष्टि हो रही है...',
    resend: 'कोड फिर से भेजें',
  },
  waitingPalm: {
    heading: 'हथेली पंजीकरण आपकी मंज़ूरी की प्रतीक्षा में',
    body: 'Hasta के एक एडमिन ने आपके खाते पर हथेली रजिस्टर करना शुरू किया है। इसे तभी मंज़ूर करें जब आप अभी उनके साथ हों और यह आपकी अपनी हथेली हो: इससे आपके वॉलेट से भुगतान हो सकेगा।',
    left: 'बायाँ हाथ',
    right: 'दायाँ हाथ',
    formLabel: '{{hand}} का पंजीकरण',
    started: '{{hand}} · {{when}} को शुरू हुआ',
    codeSentTo: 'कोड {{to}} पर भेजा गया।',
    code: '6 अंकों का कोड',
    approve: 'मंज़ूर करें',
    approving: 'मंज़ूर हो रहा है...',
    decline: 'अस्वीकार करें',
    declining: 'अस्वीकार हो रहा है...',
  },
  notFound: {
    title: 'पेज नहीं मिला',
    lead: 'इस पते पर कोई पेज नहीं है। हो सकता है वह हट गया हो, या लिंक ग़लत लिखा हो।',
    home: 'होम पेज पर जाएँ',
  },
  routeError: {
    title: 'कुछ गड़बड़ हो गई',
  },
};
