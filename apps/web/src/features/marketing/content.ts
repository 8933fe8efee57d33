/** Marketing copy shared by the home, demo and technology pages (spec §2.3 to §2.6). */
export interface Step {
  title: string;
  body: string;
}

export const HOW_IT_WORKS: readonly Step[] = [
  {
    title: 'Infrared palm scan',
    body: 'An infrared sensor reads the vein pattern under the skin of your palm.',
  },
  {
    title: 'Geometric hashing',
    body: 'The scan is turned into an irreversible hash on the device; the image itself is discarded.',
  },
  {
    title: 'Consent stored on chain',
    body: 'Your consent to pay is recorded on a blockchain, so it can be checked later.',
  },
  { title: 'INR wallet deduction', body: 'The amount is deducted from your rupee wallet.' },
  {
    title: 'Transaction minted on chain',
    body: 'The payment is minted as a blockchain transaction with its own id.',
  },
];

export const COMING_SOON = 'Coming Soon';
