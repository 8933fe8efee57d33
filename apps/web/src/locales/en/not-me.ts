import { messages } from '@hasta/contracts/messages';

/** /not-me: the payer reports a palm payment from the link in its notice (English). */
export const notMe = {
  title: 'Report a palm payment',
  lead: 'If you did not make this payment with your palm, tell us here. No login is needed: this link is yours alone and works once.',
  loading: 'Loading the payment...',
  paymentHeading: 'The payment',
  amount: 'Amount',
  payee: 'Paid to',
  when: 'Date and time',
  explain:
    'Pressing the button pauses palm pay for your account at once, on every hand and every device, and sends this payment to our team to review.',
  report: 'This wasn’t me',
  reportedHeading: 'Payment reported',
  reporting: 'Reporting...',
  // The catalogue's texts, verbatim in English (widened to string: other languages say it their way).
  reported: messages.notMeReported as string,
  linkInvalid: messages.notMeLinkInvalid as string,
  nextHeading: 'What happens next',
  nextPaused:
    'Palm pay is paused on every hand and every device: nobody can pay with your palm until you turn it back on.',
  nextReview:
    'An admin reviews this payment. If it was not you, the money is refunded to your wallet; either way, we tell you the outcome.',
  nextUnfreeze:
    'To turn palm pay back on, log in and open the Consent tab of your dashboard: we send a code to your phone or email to confirm it is you.',
  dashboardLink: 'Go to your dashboard',
  invalidHelp:
    'If a payment you did not make is in your history, log in and press “Not me” beside it to report it.',
  historyLink: 'Open your transaction history',
  retry: 'Try again',
};
