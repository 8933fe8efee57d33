/**
 * The decision threshold holds on palms it was not fitted to (issue 26): on held-back seeds (neither the
 * calibration's nor the benchmark's), the false-match rate of fused scans at the engine's threshold for FMR
 * 1e-3 is at most twice 1e-3 for BOTH palm models at the medium level, and within 2x of 1e-3 (0.5e-3 to 2e-3)
 * on the tail that sets the threshold: model A at the hard level, the heaviest of the six model × level tails
 * that `npm run bench:palm-calibrate` measures (so the threshold holds on every model and level, and is not
 * needlessly strict where it is set).
 *
 * Why not within 2x on both models at the medium level: model B's palms are further apart than model A's (its
 * impostor tail is lighter: at A's threshold for 1e-3, B's FMR is about 1e-5), so no single threshold can be
 * within 2x of the target on both; and model A's tail is heavier at the hard level than at the medium one (at
 * the threshold set by the hard level, the medium level's FMR is about half the target).
 */
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMPOSTOR_MODEL, thresholdForFmr } from '../packages/palm/src/search';
import type { NuisanceLevel } from './palm-data/camera';
import { MODEL_NAMES, SEEDS, type ModelName } from './palm-capture';
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
    'gives at most twice the FMR it is set for on both models at the medium level, and within 2x of it on the heaviest tail',
    async () => {
      const threshold = thresholdForFmr(TARGET_FMR, DEFAULT_IMPOSTOR_MODEL);
      const rates: { model: string; level: NuisanceLevel; count: number; pairs: number; fmr: number }[] = [];
      const populations: [ModelName, NuisanceLevel][] = [
        ...MODEL_NAMES.map((model): [ModelName, NuisanceLevel] => [model, 'medium']),
        ['A', 'hard'],
      ];
      for (const [model, level] of populations) {
        const impostor = await fusedImpostorScores(pool, model, level, SEEDS.heldBack, PALMS);
        expect(impostor.length, `model ${model} ${level}: impostor pairs`).toBeGreaterThanOrEqual(20_000);
        const count = countAtMost(impostor, threshold);
        rates.push({ model, level, count, pairs: impostor.length, fmr: count / impostor.length });
      }
      const said =
        rates.map((r) => `model ${r.model} ${r.level}: ${r.count} in ${r.pairs}`).join(', ') +
        ` at ${threshold.toFixed(4)}`;
      for (const r of rates) expect(r.fmr, said).toBeLessThanOrEqual(2 * TARGET_FMR);
      expect(rates.at(-1)!.fmr, said).toBeGreaterThanOrEqual(TARGET_FMR / 2);
    },
    // Drawing, fusing and protecting 3 × 145 scans in two worker threads, then 3 × 20,880 comparisons: about
    // a minute on an idle two-core machine (model B's palms take longest to draw), more on a busy one.
    300_000,
  );
});
