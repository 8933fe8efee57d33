import { comingSoonTitle, messages } from '@hasta/contracts/messages';

/** The app's shared chrome: navigation bar, footer, dialogs (English). */
export const common = {
  language: {
    label: 'Language',
  },
  nav: {
    site: 'Site',
    app: 'App',
    mobile: 'Mobile',
    menu: 'Menu',
    explore: 'Explore',
    appHeading: 'App',
    home: 'Home',
    technology: 'Technology',
    features: 'Features',
    demo: 'Demo',
    contact: 'About / Contact',
    login: 'Login',
    userDashboard: 'User Dashboard',
    admin: 'Admin',
    palmRegister: 'Palm Register',
    pay: 'Pay',
    receive: 'Receive',
    history: 'History',
    storeDashboard: 'Store Dashboard',
    myWallet: 'My Wallet',
    launchApp: 'Launch App',
    adminPage: 'Admin Page',
    userPage: 'User Page',
    storePage: 'Store Page',
    logout: 'Logout',
  },
  /** What the person's screens say about an outcome (issue 27): where a code went, what was done. */
  flow: {
    codeSentTo:
      'Code sent to {{destination}} to send {{amount}} to {{receiver}}. It pays only this transfer.',
    codeSent: 'Code sent to send {{amount}} to {{receiver}}. It pays only this transfer.',
    moneySentDetail: 'Sent {{amount}} to {{receiver}}.',
    redirecting: 'Taking you to your dashboard...',
    toDashboard: 'Go to my dashboard now',
  },
  footer: {
    tagline:
      'Palm-scan payments for India: an INR wallet you open with your hand, and consent you can verify.',
    product: 'Product',
    company: 'Company',
    rewards: 'Rewards',
    technology: 'Technology',
    features: 'Features',
    demo: 'Demo',
    waitlist: 'Join the Waitlist',
    contact: 'About / Contact',
    privacy: 'Privacy',
    terms: 'Terms',
    starsProgramme: 'Stars Programme',
    pointsProgramme: 'Points Programme',
    copyright: '© {{year}} {{product}}',
  },
  comingSoon: {
    // The spec's texts (§2.2), verbatim in English (widened to string: other languages say it their way).
    title: comingSoonTitle('{{feature}}'),
    body: messages.comingSoonBody as string,
    badge: 'Coming Soon',
  },
  sessions: {
    heading: 'Signed-in devices',
    loading: 'Loading your sessions...',
    thisDevice: 'This device',
    unknownDevice: 'Unknown device',
    started: 'Signed in {{when}}',
    lastSeen: 'Last active {{when}}',
    signOut: 'Sign out',
    signOutOthers: 'Sign out everywhere else',
    signingOut: 'Signing out...',
    none: 'No other device is signed in.',
    failed: 'Could not load your sessions. Please try again.',
  },
  dialog: {
    close: 'Close',
  },
  hero: {
    palmRegister: 'Palm Register',
    pay: 'Pay',
    receive: 'Receive',
    loginRequired: messages.unauthorized as string,
  },
};
