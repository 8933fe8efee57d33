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
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMPOSTOR_MODEL, thresholdForFmr } from '../packages/palm/src/search';
import { MODEL_NAMES, SEEDS } from './palm-capture';
import { fusedImpostorScores } from './palm-impostors';
import { Pool } from './palm-pool';
import { countAtMost } from './palm-scores';

/** 145 palms: 145 × 144 = 20,880 ordered impostor pairs (about twenty at FMR 1e-3); two refused scans still leave 20,306. */
const PALMS = 145;
const TARGET_FMR = 1e-3;

describe('the impostor model on held-back palms of both models (medium level)', () => {
  // The benchmark's worker threads: the scans are made two at a time on a two-core machine.
  const pool = new Pool(Math.max(1, Math.min(2, availableParallelism())), new Uint8Array(32).fill(0x5c));
  afterAll(() => pool.close());

  it(
    'gives at most twice the FMR it is set for on each model, and at least half of it on the heavier tail',
    async () => {
      const threshold = thresholdForFmr(TARGET_FMR, DEFAULT_IMPOSTOR_MODEL);
      const rates: { model: string; count: number; pairs: number; fmr: number }[] = [];
      for (const model of MODEL_NAMES) {
        const impostor = await fusedImpostorScores(pool, model, 'medium', SEEDS.heldBack, PALMS);
        expect(impostor.length, `model ${model}: impostor pairs`).toBeGreaterThanOrEqual(20_000);
        const count = countAtMost(impostor, threshold);
        rates.push({ model, count, pairs: impostor.length, fmr: count / impostor.length });
      }
      const said = `${rates.map((r) => `model ${r.model}: ${r.count} in ${r.pairs}`).join(', ')} at ${threshold.toFixed(4)}`;
      for (const r of rates) expect(r.fmr, said).toBeLessThanOrEqual(2 * TARGET_FMR);
      expect(Math.max(...rates.map((r) => r.fmr)), said).toBeGreaterThanOrEqual(TARGET_FMR / 2);
    },
    // Drawing, fusing and protecting 2 × 145 scans in two worker threads, then 2 × 20,880 comparisons: about
    // a minute on an idle two-core machine (model B's palms take longest to draw), more on a busy one.
    300_000,
  );
});
