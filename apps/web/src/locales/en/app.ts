import { PALM_CONSENT_NOTICE } from '@hasta/contracts/palm';

/** Texts of the app's shared parts (dialogs, code steps, camera, errors), used by every signed-in screen. */
export const app = {
  /** The notice a person agrees to before a palm is registered (the contract's text, verbatim). */
  palmConsentNotice: PALM_CONSENT_NOTICE as string,
  hands: { left: 'Left hand', right: 'Right hand' },
  palmRegister: {
    lead: 'Register your left hand, your right hand, or both.',
    goBack: 'Go Back',
    login: 'Login',
  },
  codeChannel: {
    sms: 'SMS OTP',
    email: 'Email OTP',
  },
  actions: {
    retry: 'Retry',
    copy: 'Copy',
    cancel: 'Cancel',
  },
  camera: {
    tryAgain: 'Try the camera again',
  },
  changePassword: {
    title: 'Change Password',
    current: 'Current password',
    new: 'New password',
    confirm: 'Confirm new password',
    submit: 'Change Password',
    submitting: 'Changing...',
  },
  stepUp: {
    heading: 'Confirm it’s you',
    send: 'Send code',
    sending: 'Sending...',
    sentTo: 'Sent to {{to}}.',
    code: '6-digit code',
    verify: 'Verify',
    verifying: 'Verifying...',
    resend: 'Resend code',
  },
  waitingPalm: {
    heading: 'Palm registration waiting for your approval',
    body: 'An admin at Hasta started registering a palm on your account. Approve it only if you are with them now and it is your own palm: it will be able to pay from your wallet.',
    left: 'Left hand',
    right: 'Right hand',
    formLabel: '{{hand}} registration',
    started: '{{hand}} · started {{when}}',
    codeSentTo: 'Code sent to {{to}}.',
    code: '6-digit code',
    approve: 'Approve',
    approving: 'Approving...',
    decline: 'Decline',
    declining: 'Declining...',
  },
  notFound: {
    title: 'Page not found',
    lead: 'There is no page at this address. It may have moved, or the link may be mistyped.',
    home: 'Go to the home page',
  },
  routeError: {
    title: 'Something went wrong',
  },
  pairingCode: {
    label: 'Pairing code for {{name}}',
    enterOn: 'Enter this code on “{{name}}”',
    codeLabel: 'Pairing code {{code}}',
    expiresIn: 'Expires at {{time}} ({{clock}} left).',
    expired: 'This code has expired. Create a new one.',
    once: 'It works once. Anyone with the code can pair a device for you: do not share it.',
  },
};
