/** Kiosk mode (issue 22, /kiosk): a tablet at a kiosk of the locator where people register their palms. */
export const kiosk = {
  title: 'Register your palm',
  kioskAt: 'Hasta kiosk · {{place}}',
  language: 'Language',
  start: 'Start',
  cancel: 'Cancel',
  signOut: 'Sign out',
  gone: 'This kiosk is no longer paired. Ask an admin for a new pairing code.',
  pairAgain: 'Pair this kiosk again',
  hands: {
    left: 'left hand',
    right: 'right hand',
  },
  privacy: {
    heading: 'What is kept, and why',
    signIn: 'You sign in with a code sent to your phone; your palm is registered on your own account.',
    device: 'This kiosk signs each scan with its own key, so your registration is known to come from here.',
    signedOut: 'You are signed out as soon as your palm is registered, or after 60 seconds without a touch.',
  },
  farewell: {
    enrolled: 'Your {{hand}} is registered. You have been signed out.',
    idle: 'You were signed out after 60 seconds without a touch.',
    signedOut: 'You have been signed out.',
  },
  signIn: {
    heading: 'Sign in',
    phoneIntro: 'Enter the mobile number of your Hasta account. We send a sign-in code to it.',
    phoneLabel: 'Mobile number',
    send: 'Send code',
    sending: 'Sending...',
    codeSent: 'A 6-digit code was sent to {{to}}.',
    codeLabel: '6-digit code',
    verify: 'Sign in',
    verifying: 'Signing in...',
  },
  person: {
    heading: 'Choose a hand',
    loading: 'Loading...',
    confirmIntro:
      'Before a palm is registered on your account, confirm it’s you with one more code to your phone.',
    chooseHand: 'Which hand do you want to register?',
    register: 'Register {{hand}}',
    registered: '{{hand}}: registered',
    bothDone: 'Both hands are registered. There is nothing more to do here.',
  },
  scan: {
    heading: 'Registering your {{hand}}',
    instruction: 'Place your {{hand}} flat inside the box on the screen and hold it still.',
    otherHand: 'Choose another hand',
  },
};
