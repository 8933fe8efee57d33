/**
 * The decision threshold holds on palms it was not fitted to (issue 26): on held-back seeds (neither the
 * calibration's nor the benchmark's), the false-match rate of fused scans' normalised scores (each distance
 * read against the payment scan's cohort, score-normalisation.ts, as the server decides) at the threshold for
 * FMR 1e-3 is at most twice 1e-3 for BOTH palm models at the medium level and for the held-out model B at the
 * hard level, and within 2x of 1e-3 (0.5e-3 to 2e-3) on the tail that sets the threshold: model A at the hard
 * level, the heaviest of model A's three tails that `npm run bench:palm-calibrate` fits (model B is never
 * calibrated on), so the threshold is not needlessly strict where it is set.
 *
 * Before normalisation, model B's FMR at the threshold set by model A was about 1e-5 (a hundred times below
 * the target, and its genuine scans were rejected for it); normalised, the two models' tails nearly coincide.
 */
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_NORMALISED_IMPOSTOR_MODEL } from '../packages/palm/src/score-normalisation';
import { thresholdForFmr } from '../packages/palm/src/search';
import type { NuisanceLevel } from './palm-data/camera';
import { MODEL_NAMES, SEEDS, type ModelName } from './palm-capture';
import { fusedImpostorScores } from './palm-impostors';
import { Pool } from './palm-pool';
import { countAtMost } from './palm-scores';

/** 145 palms: 145 × 144 = 20,880 ordered impostor pairs (about twenty at FMR 1e-3); two refused scans still leave 20,306. */
const PALMS = 145;
const TARGET_FMR = 1e-3;

describe('the normalised impostor model on held-back palms of both models', () => {
  // The benchmark's worker threads: the scans are made two at a time on a two-core machine.
  const pool = new Pool(Math.max(1, Math.min(2, availableParallelism())), new Uint8Array(32).fill(0x5c));
  afterAll(() => pool.close());

  it(
    'gives at most twice the FMR it is set for on both models at the medium level and on model B at the hard level, and within 2x of it on the tail that sets it',
    async () => {
      const threshold = thresholdForFmr(TARGET_FMR, DEFAULT_NORMALISED_IMPOSTOR_MODEL);
      const rates: { model: string; level: NuisanceLevel; count: number; pairs: number; fmr: number }[] = [];
      const populations: [ModelName, NuisanceLevel][] = [
        ...MODEL_NAMES.map((model): [ModelName, NuisanceLevel] => [model, 'medium']),
        ['B', 'hard'],
        ['A', 'hard'],
      ];
      for (const [model, level] of populations) {
        const impostor = (await fusedImpostorScores(pool, model, level, SEEDS.heldBack, PALMS)).normalised;
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
    // Drawing, fusing and protecting 4 × 145 scans and their cohort distances in two worker threads, then
    // 4 × 20,880 comparisons, each polished as stage 2 scores a candidate (search.ts polishDistance; a probe's
    // pairs share its hashed poses): 497 s in a `.ci/run` on the two-core machine with other work running.
    1_800_000,
  );
});
