/**
 * The headline figures of the public pages (spec §1, §9: there they are marketing copy), as numbers, so each
 * page formats them for its language. The palm figures say what `npm run bench:palm` measured, written to
 * `docs/palm-figures.json` (issue 26): `figures.test.ts` reads that file and fails when a figure here claims
 * more than was measured, or no longer follows it. They also say the same as `MARKETING_FIGURES` in the
 * contracts (checked by the same test).
 */
export const FIGURES = {
  /**
   * Genuine payment scans recognised at the server's threshold with 1 million palms registered: 1 − FNIR at
   * N = 10^6, medium capture conditions, the worse of the benchmark's two palm models; rounded down to 0.1
   * percentage point, so the page never rounds it up.
   */
  recognisedFraction: 0.866,
  /**
   * The false-positive identification rate the server's match threshold is set for (the decision policy's
   * target for a scan of someone not registered, at any gallery size): a target, not a measurement.
   */
  falseMatchTarget: 0.001,
  /**
   * The server's scan to decision (extraction, fusion, protection, search of 1 million palms, decision), p95,
   * rounded up to the next 0.1 s: shown as "under 0.3 s". The camera and the network are not in it.
   */
  decisionUnderMs: 300,
  /** Palm cells whose line orientation a template is made from, mean per capture, rounded down to tens. */
  dataPoints: 920,
  patentClaims: 12,
  /** Raw palm pictures discarded after the scan (none is stored). */
  privacyFraction: 1,
} as const;

/** The figures the public pages can show, in `marketing:figures`. */
export type FigureKey =
  'recognised' | 'falseMatch' | 'verification' | 'dataPoints' | 'patentClaims' | 'privacy';

/** The "under … s" of the verification figure, in seconds. */
export function decisionUnderSeconds(): number {
  return FIGURES.decisionUnderMs / 1_000;
}

/** The false-match target as "1 in …". */
export function falseMatchOneIn(): number {
  return Math.round(1 / FIGURES.falseMatchTarget);
}
