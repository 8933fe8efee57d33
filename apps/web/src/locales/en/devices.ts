/**
 * Paired devices (issue 22): the pairing screen (shared by /terminal and /kiosk), this browser becoming a
 * device of its owner, and the store terminal's own screen (/terminal).
 */
export const devices = {
  pairing: {
    title: 'Pair this device',
    introTerminal:
      'Ask the store owner for a pairing code: on the merchant dashboard, open Terminals and make a new code. It works once, for 10 minutes.',
    introKiosk:
      'Ask an admin for a pairing code: on the admin page, open Devices and make a new code for this kiosk. It works once, for 10 minutes.',
    codeLabel: 'Pairing code',
    codeHint: '8 letters and digits, as shown where the code was made.',
    codeInvalid: 'Enter the 8-character pairing code.',
    submit: 'Pair this device',
    pairing: 'Pairing...',
    keyNote: 'This browser makes its own signing key for palm scans; the key never leaves this browser.',
    failed: 'This device could not be paired. Check the code and try again.',
    unsupported:
      'This browser cannot keep a device key (it lacks WebCrypto or storage). Use a current Chrome, Edge, Firefox or Safari.',
    paired: 'Paired as {{name}}.',
  },
  /** A person's own browser, or the store owner's, becoming a device before its first palm scan. */
  thisBrowser: {
    receiveIntro:
      "Before this browser takes palm payments for you, confirm it's you: a code goes to your phone (or email). This browser then keeps a signing key of its own for your palm scans.",
    storeIntro:
      "Before this browser takes palm payments for your store, confirm it's you: a code goes to your phone (or email). This browser then becomes one of your store's terminals.",
    enrolIntro:
      "Before this browser registers palms, confirm it's you: a code goes to your phone (or email). This browser then keeps a signing key of its own for palm scans.",
    preparing: 'Preparing this browser for palm scans...',
    failed: 'This browser could not be set up for palm scans. Try again.',
  },
  terminal: {
    title: 'Store terminal',
    loading: 'Starting the terminal...',
    storeLabel: 'Store',
    amountLabel: 'Amount to take',
    amountEmpty: '₹0',
    keypadLabel: 'Amount keypad',
    decimalPoint: 'Decimal point',
    backspace: 'Delete last digit',
    clear: 'Clear',
    charge: 'Take {{amount}} by palm',
    cancel: 'Cancel',
    scanFor: 'Payer: pay {{amount}} to {{store}}',
    received: 'Payment received {{amount}}',
    receivedFrom: 'Payment received {{amount}} from {{payer}}',
    next: 'Next payment',
    tryAgain: 'Try again',
    sending: 'Sending the payment...',
    offline:
      'No network. The payment is kept on this terminal and will be sent again, as the same payment, when the network is back.',
    retryNow: 'Retry now',
    pendingNote: 'A payment of {{amount}} was still being sent when this page closed: sending it again.',
    historyTitle: "This terminal's last payments",
    historyEmpty: 'No payments taken on this terminal yet.',
    historyLoading: 'Loading payments...',
    historyError: 'The payments could not be loaded.',
    revoked: 'This terminal is no longer paired with the store. Ask the store owner for a new pairing code.',
    unpair: 'Forget this pairing',
    language: 'Language',
  },
};
