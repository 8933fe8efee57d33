import type { contact as english } from '../en/contact';

export const contact: typeof english = {
  title: 'Hasta के बारे में',
  lead: 'हम भारत के लिए हथेली से भुगतान बना रहे हैं: हर किसी के लिए आसान, और शुरुआत से ही निजी।',
  about: {
    title: 'हम कौन हैं',
    mission: {
      title: 'मिशन',
      body: 'भारत में हर किसी के लिए भुगतान को हाथ उठाने जितना आसान बनाना।',
    },
    vision: {
      title: 'विज़न',
      body: 'ऐसा देश जहाँ पहचान और भुगतान के लिए इंसान के अलावा किसी चीज़ की ज़रूरत न हो।',
    },
    values: {
      title: 'मूल्य',
      body: 'शुरुआत से निजता, ऐसी सहमति जिसे आप जाँच सकें, और सबके लिए पहुँच।',
    },
  },
  stats: {
    title: 'आँकड़ों में Hasta',
  },
  reach: {
    title: 'संपर्क करें',
    email: 'ईमेल',
    phone: 'फ़ोन',
    office: 'दफ़्तर',
    officeValue: 'बेंगलुरु, कर्नाटक, भारत',
    hours: 'समय',
    hoursValue: 'सोमवार से शनिवार, सुबह 10 से शाम 6 बजे तक',
    chat: 'हमसे चैट करें',
    whatsapp: 'WhatsApp',
    telegram: 'Telegram',
    newTab: '(नए टैब में खुलता है)',
  },
  inquiry: {
    title: 'सामान्य पूछताछ',
    intro: 'Hasta, साझेदारी या निवेश के बारे में कोई सवाल? हमें लिखें, हम जल्द जवाब देंगे।',
    name: 'नाम',
    emailOrPhone: 'ईमेल या फ़ोन',
    role: 'मैं हूँ',
    rolePlaceholder: 'अपनी भूमिका चुनें',
    roles: {
      user: 'उपयोगकर्ता',
      merchant: 'दुकानदार',
      investor: 'निवेशक',
      developer: 'डेवलपर',
    },
    message: 'संदेश',
    submit: 'पूछताछ भेजें',
  },
  vendor: {
    title: 'वेंडर रजिस्ट्रेशन',
    intro: 'Hasta के साथ बेचें: हथेली POS, कियोस्क या हमारे API के लिए अपना व्यवसाय रजिस्टर करें।',
    businessName: 'व्यवसाय का नाम',
    ownerName: 'मालिक का नाम',
    email: 'ईमेल',
    phone: 'फ़ोन',
    address: 'व्यवसाय का पता',
    interests: 'किसमें रुचि है',
    interestOptions: {
      pos: 'PalmPOS इंटीग्रेशन',
      kiosk: 'PalmKiosk सेटअप',
      api: 'API इंटीग्रेशन',
    },
    comments: 'टिप्पणी (वैकल्पिक)',
    submit: 'वेंडर के रूप में रजिस्टर करें',
  },
};
