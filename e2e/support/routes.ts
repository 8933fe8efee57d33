import { PRODUCT_NAME } from '@hasta/contracts/constants';

/** Every public page of spec §2.1 (plus /privacy and /terms) with the h1 it must show. */
export const PUBLIC_PAGES = [
  { path: '/', heading: 'Pay with the palm of your hand' },
  { path: '/technology', heading: `The Technology Behind ${PRODUCT_NAME}` },
  { path: '/features', heading: 'Features' },
  { path: '/demo', heading: 'How It Works' },
  { path: '/contact', heading: `About ${PRODUCT_NAME}` },
  { path: '/login', heading: `Login to ${PRODUCT_NAME}` },
  { path: '/register', heading: `Create your ${PRODUCT_NAME} account` },
  { path: '/applicants-register', heading: `Join the ${PRODUCT_NAME} Waitlist` },
] as const;

/** A person's pages: guarded like /user-dashboard (issue 27), shown to any stored user. */
export const PERSON_PAGES = [
  { path: '/palm-register', heading: 'Palm Registration' },
  { path: '/transfer', heading: 'Send Money' },
  { path: '/receive', heading: 'Receive Money' },
  { path: '/history', heading: 'Transaction History' },
] as const;

/** Pages without a route guard (spec §2.1). */
export const UNGUARDED_APP_PAGES = [
  { path: '/qr-scan', heading: 'Scan QR Code' },
  { path: '/not-me', heading: 'Report a palm payment' },
  { path: '/privacy', heading: 'Privacy' },
  { path: '/terms', heading: 'Terms' },
] as const;

export const NOT_FOUND_HEADING = 'Page not found';
