/** The features page (spec §2.5). */
export const features = {
  title: 'Features',
  lead: 'Everything Hasta does today, and what is coming next. Choose a feature to jump to it.',
  overview: 'All features',
  cardHint: 'Read more',
  palmScan: {
    title: 'Palm scan',
    summary: 'Pay by holding your palm up to a camera.',
    body: 'A phone or kiosk camera takes three pictures of your palm; our server reads its lines and creases and finds your protected template among the registered palms. Register one hand or both, at a kiosk or with a partner merchant.',
  },
  wallets: {
    title: 'INR wallets',
    summary: 'A rupee balance you can send and receive.',
    body: 'Every account holds a balance in Indian rupees. Send money by phone number or email, receive it with a palm scan, and see every movement in your history.',
  },
  palmToQr: {
    title: 'Palm-to-QR',
    summary: 'Turn a palm scan into a QR code.',
    body: 'Scan your palm and get a one-time QR code that any merchant’s QR reader can accept, even without a palm scanner at the counter.',
  },
  offline: {
    title: 'Offline buffer mode',
    summary: 'Payments queue when the network drops.',
    body: 'When a shop loses its connection, palm payments will be held safely on the terminal and settled as soon as it is back online.',
  },
  utility: {
    title: 'Utility bill pay',
    summary: 'Pay your bills with your palm.',
    body: 'Pay household bills at a partner counter or kiosk with a palm scan, straight from your INR wallet.',
    categoriesLabel: 'Bill categories',
    categories: {
      electricity: 'Electricity',
      water: 'Water',
      gas: 'Piped gas and LPG',
      mobile: 'Mobile recharge',
      broadband: 'Broadband',
      dth: 'DTH and cable TV',
    },
  },
  simLogin: {
    title: 'SIM-linked login',
    summary: 'Log in with the SIM in your phone.',
    body: 'Your phone’s SIM will confirm it is you, so you can log in without typing a code or a password.',
  },
  points: {
    title: 'Points',
    summary: 'Earn points on every palm payment.',
    body: 'Earn {{min}} to {{max}} points for every palm scan, depending on your tier, and {{bonus}} bonus points when you register your palm at a kiosk.',
    rulesLink: 'The Points Programme: earning and redeeming',
  },
  tiers: {
    title: 'Stars tiers',
    summary: 'Silver, Gold and Platinum.',
    body: 'The more you spend with your palm, the higher your tier and the more points each scan earns.',
    from: 'From {{amount}} spent',
    perScan: '{{points}} points per scan',
    rulesLink: 'The Stars Programme: how tiers work',
    names: {
      Silver: 'Silver',
      Gold: 'Gold',
      Platinum: 'Platinum',
    },
  },
  consent: {
    title: 'Consent logging',
    summary: 'Every use of your palm is logged.',
    body: 'Each time your palm is registered or used to pay, a consent record is added to an append-only log anchored on Polygon (Celo supported). Nobody can change it afterwards, not even us.',
  },
  upi: {
    title: 'UPI integration',
    summary: 'Pay to and from any UPI address.',
    body: 'Link your Hasta wallet with UPI to pay any UPI address and receive money from any UPI app.',
  },
  partners: {
    title: 'Partner integrations',
    lead: 'How shops, kiosks and developers plug into Hasta.',
    pos: {
      title: 'PalmPOS',
      body: 'A palm scanner that pairs with existing POS terminals over Bluetooth 5.0.',
    },
    kiosk: {
      title: 'PalmKiosk',
      body: 'Registration kiosks for schools, offices, stores and NGOs.',
    },
    dashboard: {
      title: 'Merchant dashboard',
      body: 'Accept palm payments, follow sales and withdraw to your bank.',
    },
    api: {
      title: 'API integration',
      body: 'A documented JSON API to connect your billing system.',
    },
  },
  offlineMock: {
    title: 'Offline mode preview',
    caption: 'A mock-up of a shop terminal in offline buffer mode.',
    status: 'Offline: payments are queued',
    pending: 'Pending transactions',
    amount: 'Amount waiting to settle',
    since: 'Queued since',
    note: 'Payments will settle automatically when the connection returns.',
  },
  cta: {
    title: 'See it for yourself',
    body: 'Walk through a payment step by step, or join the waitlist to hear when Hasta reaches your city.',
    demo: 'Try Demo',
    waitlist: 'Join Waitlist',
  },
};
