/** About / Contact (spec §2.7). */
export const contact = {
  title: 'About Hasta',
  lead: 'We are building palm-scan payments for India: simple enough for anyone, private by design.',
  about: {
    title: 'Who we are',
    mission: {
      title: 'Mission',
      body: 'Make paying as simple as raising a hand, for everyone in India.',
    },
    vision: {
      title: 'Vision',
      body: 'A country where identity and payment need nothing more than the person.',
    },
    values: {
      title: 'Values',
      body: 'Privacy by design, consent you can verify, and access for all.',
    },
  },
  stats: {
    title: 'Hasta in numbers',
  },
  reach: {
    title: 'Get in touch',
    email: 'Email',
    phone: 'Phone',
    office: 'Office',
    officeValue: 'Bengaluru, Karnataka, India',
    hours: 'Hours',
    hoursValue: 'Monday to Saturday, 10am to 6pm',
    chat: 'Chat with us',
    whatsapp: 'WhatsApp',
    telegram: 'Telegram',
    newTab: '(opens in a new tab)',
  },
  inquiry: {
    title: 'General inquiry',
    intro: 'Questions about Hasta, partnerships or investment? Write to us and we will get back to you.',
    name: 'Name',
    emailOrPhone: 'Email or phone',
    role: 'I am a',
    rolePlaceholder: 'Select your role',
    roles: {
      user: 'User',
      merchant: 'Merchant',
      investor: 'Investor',
      developer: 'Developer',
    },
    message: 'Message',
    submit: 'Send inquiry',
  },
  vendor: {
    title: 'Vendor registration',
    intro: 'Sell with Hasta: register your business for palm POS, a kiosk or our API.',
    businessName: 'Business name',
    ownerName: 'Owner name',
    email: 'Email',
    phone: 'Phone',
    address: 'Business address',
    interests: 'Interested in',
    interestOptions: {
      pos: 'PalmPOS Integration',
      kiosk: 'PalmKiosk Setup',
      api: 'API Integration',
    },
    comments: 'Comments (optional)',
    submit: 'Register as vendor',
  },
};
