import { messages } from '@hasta/contracts/messages';

/** The palm scanner: what each look at the palm says, and the server's answers about a scan's pictures. */
export const palmScan = {
  starting: 'Starting the camera...',
  placePalm: 'Place your palm inside the box.',
  /** One hint per reason a look is not taken (the scanner's feedback line). */
  feedback: {
    ok: 'Palm found: hold still while it is captured.',
    'too-dark': 'Too dark: move to better light.',
    'too-bright': 'Too bright: move out of direct light.',
    'no-palm': 'No palm in the box: hold your palm flat inside the box.',
    'not-palm': 'That does not look like a palm: hold your open palm inside the box.',
    moving: 'Hold still.',
    blurry: 'Hold still: the picture is blurred.',
    tilted: 'Hold your palm flat, facing the camera.',
    'out-of-frame': 'Keep your whole hand inside the picture.',
    'too-far': 'Move your hand closer to the camera.',
    'too-close': 'Move your hand a little further from the camera.',
    'show-palm': 'Show the palm of your hand, not its back.',
    'turn-palm': 'Turn your palm flat towards the camera.',
    'open-hand': 'Open your hand and spread your fingers.',
    rotated: 'Hold your hand upright, fingers pointing up.',
  },
  /** The scan stopped at its time limit without enough good pictures; `hint` is what failed most often. */
  /** The screen the payer looks at before a palm payment, and what it says once paid (issue 27). */
  pay: {
    prompt: 'Pay {{amount}} to {{payee}}',
    payerHint: 'Payer: hold your open palm inside the box to pay.',
    received: 'Received {{amount}} from {{payer}}.',
    receivedAmount: 'Received {{amount}}.',
  },
  /** Palm registration's success, agreeing with the progress (issue 27). */
  registered: {
    oneOfTwo:
      '1 of 2 hands registered. You can register your {{other}} hand now, or later from your dashboard.',
    registerOther: 'Register my {{other}} hand now',
    both: '2 of 2 hands registered.',
    left: 'left',
    right: 'right',
  },
  timedOut:
    'The scan stopped: in {{seconds}} seconds there were not enough clear pictures of your palm. What kept failing: {{hint}}',
  /** The server's answers about a scan's pictures (the catalogue's texts, verbatim in English). */
  server: {
    palmScanDark: messages.palmScanDark as string,
    palmScanBright: messages.palmScanBright as string,
    palmScanBlurred: messages.palmScanBlurred as string,
    palmScanUnclear: messages.palmScanUnclear as string,
    palmScanNotPalm: messages.palmScanNotPalm as string,
  },
  /** Palm registration's screen (spec §2.12's texts). */
  register: {
    statusBoth: 'Both hands registered ✓',
    statusLeft: 'Left hand registered ✓ - You can register right hand or continue',
    statusRight: 'Right hand registered ✓ - You can register left hand or continue',
    statusNone: 'Choose which hand(s) you want to register',
    alreadyRegistered: 'Already Registered',
    bothAlready: 'Both hands are already registered.',
    leftRegistered: 'Left Hand ✓ Registered',
    rightRegistered: 'Right Hand ✓ Registered',
    registerLeft: 'Register Left Hand',
    registerRight: 'Register Right Hand',
    continueDashboard: 'Continue to Dashboard',
    continueAdmin: 'Continue to Admin',
    returnDashboard: 'Return to Dashboard',
    returnAdmin: 'Return to Admin',
    complete: 'Registration Complete!',
    detailLeft: 'Left hand has been registered successfully.',
    detailRight: 'Right hand has been registered successfully.',
    redirectAdmin: 'Redirecting to admin dashboard...',
    redirect: 'Redirecting to dashboard...',
    scanningLeft: 'Registering your LEFT hand',
    scanningRight: 'Registering your RIGHT hand',
    placeLeft: 'Place your left hand on the scanner',
    placeRight: 'Place your right hand on the scanner',
    adminMode: 'Admin mode: registering a palm for <strong>{{target}}</strong>.',
    loading: 'Loading registration state...',
    retry: 'Retry',
    failedLabel: 'Registration failed',
    tryAgain: 'Try Again',
    progressLabel: 'Registration progress',
    keptTitle: 'What is kept, and why',
    agree: 'I agree',
    cancel: 'Cancel',
    waitingLabel: 'Waiting for the owner',
    waitingTitle: 'Waiting for the owner’s approval',
    nothingUntil: 'Nothing is registered until <strong>{{owner}}</strong> approves it.',
    theOwner: 'the owner',
    codeSent: 'Code sent to {{to}}. The request expires at {{time}}.',
    completeLabel: 'Registration complete',
    stepUpIntro:
      'A registered palm can pay from your wallet. Before you register one, confirm it is you with a code we send to your own phone or email.',
    stateLabel: 'Registration state',
  },
  /** The palm payment's code step (the payer's code, asked by the receiver's screen). */
  code: {
    title: 'Payer’s code',
    held: 'Sent to {{to}}. {{amount}} is held from the payer’s wallet until the code is entered, for 5 minutes at most.',
    label: 'Payer’s 6-digit code',
    confirming: 'Confirming...',
    confirm: 'Confirm payment',
    cancelling: 'Cancelling...',
    cancel: 'Cancel payment',
  },
  store: {
    useQr: 'Show a QR code for {{amount}} instead',
  },
  scanner: {
    /** The scan's progress under the preview: pictures taken of those needed. */
    captured: 'Captured {{done}} of {{total}}',
    demoChecking: 'Demo scan: using the demo palm of this device...',
    checking: 'Checking your palm...',
    preview: 'Camera preview with the palm guide box',
    demoMode: 'Demo mode',
    demo: 'Demo',
    demoNotice:
      'No camera: this simulates a scan with the synthetic demo palm of this device, not a real palm. It is for trying Hasta out and only works on test servers.',
    useDemoLeft: 'Use the demo palm (left hand)',
    useDemoRight: 'Use the demo palm (right hand)',
    demoLeft: 'Demo left palm',
    demoRight: 'Demo right palm',
  },
};
