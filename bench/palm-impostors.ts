/**
 * Impostor distances of the server's protocol for the threshold's calibration (bench/palm-calibrate.ts) and
 * its test (bench/palm-threshold.test.ts): one hold of each palm fused, as the payment scan against every
 * other palm's as the registration (both directions: the probe's alignments differ), in the worker threads.
 */
import { TemplateProtector } from '../packages/palm/src/protect';
import type { NuisanceLevel } from './palm-data/camera';
import { SCAN_FRAMES, type ModelName } from './palm-capture';
import type { Pool } from './palm-pool';
import { sorted } from './palm-scores';
import { cohortOf, kindBuffers, layout, type BuildConfig } from './palm-worker';
import { normalisedScore } from '../packages/palm/src/score-normalisation';

/**
 * Ascending impostor scores of `palms` palms (their number of ordered pairs, less any refused scan's): the
 * distances, and the same pairs' normalised scores (each distance against its probe's cohort) as the server
 * decides on.
 */
export async function fusedImpostorScores(
  pool: Pool,
  model: ModelName,
  level: NuisanceLevel,
  seed: number,
  palms: number,
  /** Holds each registration is fused from (decision 049; the server registers one). */
  enrolHolds = 1,
): Promise<{ distances: Float64Array; normalised: Float64Array }> {
  const shape = layout(new TemplateProtector(pool.key));
  const config: BuildConfig = {
    model,
    level,
    seed,
    holds: 1,
    frames: SCAN_FRAMES,
    maxHolds: 1,
    roles: 'both',
    ...(enrolHolds > 1 ? { enrolHolds } : {}),
  };
  const fused = kindBuffers(shape, palms, false);
  await pool.build(config, { fused }, palms);
  const made = new Uint8Array(fused.made);
  const pairs: number[] = [];
  for (let i = 0; i < palms; i++) {
    if (!made[i]) continue;
    for (let j = 0; j < palms; j++) if (j !== i && made[j]) pairs.push(i, j);
  }
  const { fine } = await pool.compare(fused, Int32Array.from(pairs));
  const normalised = Float64Array.from(fine, (d, k) => normalisedScore(d, cohortOf(fused, pairs[2 * k]!)));
  return { distances: sorted(fine), normalised: sorted(normalised) };
}
