/**
 * The marketing figures of spec §1 and §9 as numbers, so each page formats them for its language. They say
 * the same as `MARKETING_FIGURES` in the contracts (checked by `figures.test.ts`).
 */
export const FIGURES = {
  accuracyFraction: 0.999,
  verificationSeconds: 2,
  dataPoints: 500,
  patentClaims: 12,
  privacyFraction: 1,
} as const;
