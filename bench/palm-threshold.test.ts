/**
 * The decision threshold holds on palms it was not fitted to (issue 26): on held-back seeds (neither the
 * calibration's nor the benchmark's), the false-match rate of fused scans of BOTH palm models at the medium
 * level, at the engine's threshold for FMR 1e-3, is at most twice 1e-3 on each model, and at least half of it
 * on the model whose impostor tail is heavier: the threshold is set by the heaviest tail (so it holds on
 * every model), and not needlessly strict on it.
 *
 * Why not within 2× on both: model B's palms are further apart than model A's (its impostor tail is lighter:
 * at A's threshold for 1e-3, B's FMR is about 1e-5), so no single threshold can be within 2× of the target
 * on both; the threshold must then be the one safe for both (npm run bench:palm-calibrate, the fits' lower
 * envelope).
 */
import { describe, expect, it } from 'vitest';
import { TemplateProtector, type ProbeTemplates, type ProtectedTemplate } from '../packages/palm/src/protect';
import { DEFAULT_IMPOSTOR_MODEL, thresholdForFmr, verifyDistance } from '../packages/palm/src/search';
import {
  fuseScan,
  Hold,
  holdSeed,
  MODEL_NAMES,
  palmOf,
  SCAN_FRAMES,
  SEEDS,
  type ModelName,
} from './palm-capture';

/** 145 palms: 145 × 144 = 20,880 ordered impostor pairs (about twenty at FMR 1e-3); two refused scans still leave 20,306. */
const PALMS = 145;
const TARGET_FMR = 1e-3;

/** Each palm's hold 0 fused, as a registration and as a payment scan. */
function fusedScans(model: ModelName, protector: TemplateProtector) {
  const scans: { template: ProtectedTemplate; probe: ProbeTemplates }[] = [];
  for (let i = 0; i < PALMS; i++) {
    const seed = holdSeed(SEEDS.heldBack, i, 0, 'medium');
    const hold = new Hold(palmOf(model, SEEDS.heldBack, i), 'medium', seed, SCAN_FRAMES);
    const features = fuseScan(Array.from({ length: SCAN_FRAMES }, (_, f) => hold.features(f)));
    // A scan whose frames the server would refuse is no comparison at all.
    if (features) scans.push({ template: protector.enrol(features), probe: protector.probe(features) });
  }
  return scans;
}

/** False matches at `threshold` among every ordered pair of two palms' scans (payment scan, registration). */
function falseMatches(model: ModelName, threshold: number): { count: number; pairs: number } {
  const protector = new TemplateProtector(new Uint8Array(32).fill(0x5c));
  const scans = fusedScans(model, protector);
  let pairs = 0;
  let count = 0;
  for (let i = 0; i < scans.length; i++) {
    for (let j = 0; j < scans.length; j++) {
      if (i === j) continue;
      pairs++;
      if (verifyDistance(scans[j]!.template, scans[i]!.probe) <= threshold) count++;
    }
  }
  return { count, pairs };
}

describe('the impostor model on held-back palms of both models (medium level)', () => {
  it(
    'gives at most twice the FMR it is set for on each model, and at least half of it on the heavier tail',
    () => {
      const threshold = thresholdForFmr(TARGET_FMR, DEFAULT_IMPOSTOR_MODEL);
      const rates = MODEL_NAMES.map((model) => {
        const { count, pairs } = falseMatches(model, threshold);
        expect(pairs, `model ${model}: impostor pairs`).toBeGreaterThanOrEqual(20_000);
        return { model, count, pairs, fmr: count / pairs };
      });
      const said = rates.map((r) => `model ${r.model}: ${r.count} in ${r.pairs}`).join(', ');
      for (const r of rates) {
        expect(r.fmr, `${said} at ${threshold.toFixed(4)}`).toBeLessThanOrEqual(2 * TARGET_FMR);
      }
      const heaviest = Math.max(...rates.map((r) => r.fmr));
      expect(heaviest, `${said} at ${threshold.toFixed(4)}`).toBeGreaterThanOrEqual(TARGET_FMR / 2);
    },
    // Rendering, fusing and protecting 2 × 145 scans, then 2 × 20,880 comparisons: about 45 s on an idle
    // core (model B's palms take longest to draw), more on a busy machine.
    240_000,
  );
});
