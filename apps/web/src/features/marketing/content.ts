/**
 * The structure of the public pages: which items each list holds, in order. Their words live in the
 * translations (`src/locales/{en,hi}`), under the same ids.
 */

/** The five steps of a palm payment (spec §2.3, §2.6), in `marketing:steps`. */
export const PAYMENT_STEPS = ['scan', 'hash', 'consent', 'deduct', 'mint'] as const;
export type PaymentStep = (typeof PAYMENT_STEPS)[number];

/** The technology flow (spec §2.4), in `technology:flow`. */
export const TECHNOLOGY_FLOW = ['scan', 'hash', 'consent', 'mint', 'wallet'] as const;

/**
 * The FAQ topics of spec §2.4, in its order: biometric storage, security, comparison with face unlock,
 * merchant misuse, consent, injury, spoofing, UPI, privacy, speed, offline mode, blockchain, POS
 * integration, international use, breach prevention.
 */
export const FAQ_TOPICS = [
  'storage',
  'security',
  'faceUnlock',
  'merchantMisuse',
  'consent',
  'injury',
  'spoofing',
  'upi',
  'privacy',
  'speed',
  'offline',
  'blockchain',
  'pos',
  'international',
  'breach',
] as const;
export type FaqTopic = (typeof FAQ_TOPICS)[number];

/**
 * The ten features of spec §2.5. `soon` marks what the product does not do yet: the four the spec's
 * features page marks, plus palm-to-QR and the points and stars programmes, which spec §1 lists as planned
 * (and which the home page and the footer already announce as Coming Soon).
 */
export const FEATURES = [
  { id: 'palmScan', anchor: 'palm-scan', soon: false },
  { id: 'wallets', anchor: 'inr-wallets', soon: false },
  { id: 'palmToQr', anchor: 'palm-to-qr', soon: true },
  { id: 'offline', anchor: 'offline-buffer-mode', soon: true },
  { id: 'utility', anchor: 'utility-bill-pay', soon: true },
  { id: 'simLogin', anchor: 'sim-linked-login', soon: true },
  { id: 'points', anchor: 'points', soon: true },
  { id: 'tiers', anchor: 'stars-tiers', soon: true },
  { id: 'consent', anchor: 'consent-logging', soon: false },
  { id: 'upi', anchor: 'upi-integration', soon: true },
] as const;
export type FeatureId = (typeof FEATURES)[number]['id'];

export const UTILITY_CATEGORIES = ['electricity', 'water', 'gas', 'mobile', 'broadband', 'dth'] as const;
export const PARTNER_INTEGRATIONS = ['pos', 'kiosk', 'dashboard', 'api'] as const;

/** The static offline-mode mock of spec §2.5 and §9. */
export const OFFLINE_MOCK_QUEUED_SINCE = new Date('2025-03-14T10:12:00+05:30');

/** Contact details of spec §2.7 (placeholders until the real numbers are published). */
export const CONTACT = {
  email: 'contact@hasta.in',
  phoneDisplay: '+91 80 4000 0000',
  phoneHref: 'tel:+918040000000',
  whatsapp: 'https://wa.me/918040000000',
  telegram: 'https://t.me/hasta_in',
} as const;
