/**
 * Each page's tab title and search-result description (`<title>`, `<meta name="description">`), one pair
 * per page. Titles get " · Hasta" appended; the home page's is prefixed with the name instead.
 */
export const meta = {
  pages: {
    home: {
      title: 'Pay with the palm of your hand',
      description:
        'Hasta lets you pay with a scan of your palm: a rupee wallet, consent you can verify, no cards or phones.',
    },
    technology: {
      title: 'The Technology Behind Hasta',
      description:
        'How Hasta turns a palm scan into a protected template, records your consent in a verifiable log anchored on a public blockchain, and pays from your rupee wallet.',
    },
    features: {
      title: 'Features',
      description:
        'Palm scan, INR wallets, consent logging, points and Stars tiers: what Hasta does today, and what is coming next.',
    },
    demo: {
      title: 'How It Works',
      description:
        'Five steps from a palm scan to a settled payment: a camera palm scan, geometric hashing, consent on chain, wallet deduction and the payment record.',
    },
    contact: {
      title: 'About Hasta',
      description:
        'Who is behind Hasta and how to reach us: send an inquiry, or register your business as a Hasta vendor.',
    },
    waitlist: {
      title: 'Join the Hasta Waitlist',
      description:
        'Join the waitlist to be among the first to pay with your palm when Hasta launches in your city.',
    },
    login: {
      title: 'Login to Hasta',
      description:
        'Log in to your Hasta wallet with a one-time code sent to your email or phone, or with your password.',
    },
    register: {
      title: 'Create your Hasta account',
      description:
        'Create a Hasta account with your email or phone number: a rupee wallet you pay from with your palm.',
    },
    userDashboard: {
      title: 'User Dashboard',
      description: 'Your Hasta wallet: your balance, recent payments, and money to send and receive.',
    },
    admin: {
      title: 'Admin Dashboard',
      description: 'Manage Hasta users, balances and transactions.',
    },
    storeDashboard: {
      title: 'Merchant Dashboard',
      description: 'The Hasta merchant dashboard: accept palm payments at your store.',
    },
    terminal: {
      title: 'Store terminal',
      description: 'A paired store terminal of Hasta: take palm payments at the counter.',
    },
    kiosk: {
      title: 'Palm registration kiosk',
      description: 'A paired Hasta kiosk: sign in with a code to your phone and register your palm.',
    },
    palmRegister: {
      title: 'Palm Registration',
      description: 'Register your left hand, your right hand, or both, to pay with your palm.',
    },
    transfer: {
      title: 'Send Money',
      description:
        'Send rupees from your Hasta wallet to a phone number or email, confirmed with a one-time code.',
    },
    receive: {
      title: 'Receive Money',
      description: 'Share your email or phone number to receive money in your Hasta wallet.',
    },
    history: {
      title: 'Transaction History',
      description: 'Every payment in and out of your Hasta wallet, with its blockchain transaction record.',
    },
    verify: {
      title: 'Verify a receipt',
      description:
        'Check a Hasta receipt in your browser: the log’s signed checkpoint and the proof that the entry is in it.',
    },
    qrScan: {
      title: 'Scan QR Code',
      description: 'Pay a merchant from your Hasta wallet by scanning their QR code.',
    },
    privacy: {
      title: 'Privacy',
      description: 'How Hasta handles your data: the privacy policy, published on this page before launch.',
    },
    terms: {
      title: 'Terms',
      description: 'The terms of service for using Hasta, published on this page before launch.',
    },
    notMe: {
      title: 'Report a palm payment',
      description:
        'Tell Hasta that a palm payment was not you: palm pay pauses at once and the payment is reviewed.',
    },
    starsProgramme: {
      title: 'Stars Programme',
      description:
        'Silver, Gold and Platinum tiers from what you pay by palm and at stores in 12 months, and the points each palm payment earns.',
    },
    pointsProgramme: {
      title: 'Points Programme',
      description:
        'Earn points on palm payments, the kiosk bonus and referrals, and redeem them for money in your Hasta wallet.',
    },
    notFound: {
      title: 'Page not found',
      description: 'There is no Hasta page at this address. It may have moved, or the link may be mistyped.',
    },
  },
};
