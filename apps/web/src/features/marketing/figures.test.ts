import { readFileSync } from 'node:fs';

import { MARKETING_FIGURES } from '@hasta/contracts/constants';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createFormatters } from '../../lib/i18n-format';
import { FIGURES, decisionUnderSeconds, falseMatchOneIn } from './figures';

/** What `npm run bench:palm` writes (issue 26): the worse of its two palm models, medium capture conditions. */
const measuredSchema = z.object({
  /** 1 − FNIR at N = 10^6 at the server's threshold. */
  recognised_fraction_medium_1e6: z.number().gt(0).lte(1),
  /** The FPIR the decision policy's threshold is set for. */
  fpir_target: z.number().gt(0).lt(1),
  scan_to_decision_ms_p95: z.number().gt(0),
  /** Usable cells per capture, mean. */
  data_points_mean: z.number().gt(0),
  generated_at: z.string().min(1),
});

const MEASURED_PATH = new URL('../../../../../docs/palm-figures.json', import.meta.url);
const measured = measuredSchema.parse(JSON.parse(readFileSync(MEASURED_PATH, 'utf8')));

/** Floating-point slack for comparing a figure with its rounding step. */
const EPSILON = 1e-9;

describe('FIGURES against the benchmark (docs/palm-figures.json)', () => {
  it('claims no more palm scans recognised than measured, rounded down to 0.1 percentage point', () => {
    const claimed = FIGURES.recognisedFraction;
    expect(claimed).toBeLessThanOrEqual(measured.recognised_fraction_medium_1e6);
    // Follows the benchmark: at most 0.1 pp below it, and on the 0.1 pp grid so the page shows it as it is.
    expect(measured.recognised_fraction_medium_1e6 - claimed).toBeLessThan(0.001);
    expect(Math.abs(claimed * 1_000 - Math.round(claimed * 1_000))).toBeLessThan(EPSILON);
  });

  it('states the false-match target the threshold is set for, as "1 in N"', () => {
    expect(FIGURES.falseMatchTarget).toBe(measured.fpir_target);
    expect(Math.abs(1 / falseMatchOneIn() - FIGURES.falseMatchTarget)).toBeLessThan(EPSILON);
  });

  it('bounds the scan-to-decision p95 from above by the next 0.1 s', () => {
    const p95 = measured.scan_to_decision_ms_p95;
    expect(FIGURES.decisionUnderMs).toBeGreaterThan(p95);
    expect(FIGURES.decisionUnderMs % 100).toBe(0);
    expect(FIGURES.decisionUnderMs - 100).toBeLessThanOrEqual(p95);
  });

  it('claims no more line-orientation points than the mean measured, rounded down to tens', () => {
    expect(FIGURES.dataPoints).toBeLessThanOrEqual(measured.data_points_mean);
    expect(FIGURES.dataPoints % 10).toBe(0);
    expect(measured.data_points_mean - FIGURES.dataPoints).toBeLessThan(10);
  });
});

describe('FIGURES', () => {
  it('say what the contracts say', () => {
    const format = createFormatters('en-IN');
    expect(format.percent(FIGURES.recognisedFraction)).toBe(MARKETING_FIGURES.recognised);
    expect(`1 in ${format.number(falseMatchOneIn())}`).toBe(MARKETING_FIGURES.falseMatchTarget);
    expect(format.percent(FIGURES.privacyFraction)).toBe(MARKETING_FIGURES.privacy);
    expect(`${FIGURES.patentClaims}+`).toBe(MARKETING_FIGURES.patentClaims);
    expect(`under ${format.number(decisionUnderSeconds())} s`).toBe(MARKETING_FIGURES.verification);
    expect(format.number(FIGURES.dataPoints)).toBe(MARKETING_FIGURES.dataPoints);
  });

  it('show the recognised share as it is, never rounded up, in both languages', () => {
    for (const locale of ['en-IN', 'hi-IN'] as const) {
      const shown = createFormatters(locale).percent(FIGURES.recognisedFraction);
      expect(Number.parseFloat(shown) / 100).toBeLessThanOrEqual(
        measured.recognised_fraction_medium_1e6 + EPSILON,
      );
    }
  });
});
