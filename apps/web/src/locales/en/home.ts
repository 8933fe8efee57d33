/** The home page (spec §2.3). */
export const home = {
  hero: {
    eyebrow: 'Palm payments for India',
    title: 'Pay with the palm of your hand',
    lead: 'Hasta turns a palm scan into an irreversible, protected template, records your consent in a verifiable log and pays from your rupee wallet. No card, no phone, no PIN to remember.',
    figuresLabel: 'Hasta in figures',
  },
  why: {
    eyebrow: 'Why choose Hasta',
    title: 'Payments that know it is you',
    identity: {
      title: 'Biometric identity',
      body: 'Your palm is your card: nothing to carry, nothing to forget, and nothing a thief can pick from your pocket.',
    },
    wallet: {
      title: 'INR wallet',
      body: 'Hold a balance in rupees, send money to anyone by phone or email, and receive it with a palm scan.',
    },
    blockchain: {
      title: 'Blockchain verified',
      body: 'Every consent and every payment goes into an append-only log anchored on a public blockchain, so it can be checked later.',
    },
  },
  how: {
    eyebrow: 'How it works',
    title: 'Five steps from palm to payment',
    more: 'Try the interactive demo',
  },
  preview: {
    eyebrow: 'Features',
    title: 'Built for everyday payments',
    palmScan: {
      title: 'Palm scan',
      body: 'Pay at a counter in seconds with the palm of your hand.',
    },
    consentRegistry: {
      title: 'Consent registry',
      body: 'See when and where your palm was used, and what you agreed to.',
    },
    palmToQr: {
      title: 'Palm-to-QR',
      body: 'Turn a palm scan into a QR code any merchant can accept.',
    },
    offlineMode: {
      title: 'Offline mode',
      body: 'Keep paying when the network drops; payments settle once it is back.',
    },
    all: 'See all features',
  },
  testimonials: {
    eyebrow: 'From our pilot',
    title: 'What early users say',
    priya: {
      quote:
        'Customers at my kirana store pay with a wave of the hand, and I see every payment on my dashboard straight away.',
      name: 'Priya Sharma',
      role: 'Store owner, Jaipur',
    },
    arjun: {
      quote:
        'I left my wallet at home and still paid for lunch. Registering my palm at the kiosk took two minutes.',
      name: 'Arjun Mehta',
      role: 'College student, Pune',
    },
  },
  patent: {
    title: 'Patent pending',
    body: '{{claims}} claims filed on the palm templates, the consent registry and the wallet flow behind Hasta.',
    link: 'Explore the technology',
  },
  kiosk: {
    eyebrow: 'Kiosks and partners',
    title: 'Register your palm near you',
    body: 'Visit a Hasta kiosk to register your palm in a couple of minutes, and get {{points}} bonus points when you do.',
    locate: 'Locate kiosk',
    pincodeLabel: 'Find kiosks by pincode',
    pincodePlaceholder: 'e.g. 560038',
    search: 'Search',
    posTitle: 'Run a shop?',
    posBody: 'Add palm payments to the POS terminal you already have: our scanner pairs over Bluetooth 5.0.',
    partner: 'Partner with POS',
  },
};
