/**
 * The replay guard's measure (decision 025): a live recapture of a palm is never as close to an earlier scan
 * as a copy of that scan's frames (the same frames, re-encoded, slightly shifted or cropped, with some noise).
 * A new scan whose distance to a stored recent scan of the same person is at most REPLAY_MAX_DISTANCE is a
 * replay.
 *
 * A copy shifted or cropped by a pixel or two is off by a fraction of a code cell (4 ROI pixels), which the
 * search's whole-cell alignments cannot undo, so the guard has its own fine alignments: the new scan's
 * feature is resampled at quarter-cell shifts and a few scales (a crop stretched back) and protected under
 * each; the distance is the smallest share of differing symbols between the stored template and any of them.
 */
import { alignResponses, type Alignment, type PalmFeatures } from './features';
import type { ProtectedTemplate, TemplateProtector } from './protect';
import { symbolMismatches } from './search';

/** Set in the next commit from the benchmark's figures. */
export const REPLAY_MAX_DISTANCE = 0.1;

const SHIFTS_CELLS = [-0.5, -0.25, 0, 0.25, 0.5];
const SCALES = [0.97, 1, 1.03];

/** The fine alignments a new scan is compared under. */
export const REPLAY_ALIGNMENTS: readonly Alignment[] = SCALES.flatMap((scale) =>
  SHIFTS_CELLS.flatMap((dy_cells) =>
    SHIFTS_CELLS.map((dx_cells) => ({ rotation_deg: 0, dx_cells, dy_cells, scale })),
  ),
);

/** A new scan protected under each of the guard's alignments (one key). */
export interface ReplayProbe {
  readonly keyId: Uint8Array;
  readonly templates: readonly ProtectedTemplate[];
}

export function replayProbe(
  protector: Pick<TemplateProtector, 'enrol' | 'keyId'>,
  features: PalmFeatures,
  alignments: readonly Alignment[] = REPLAY_ALIGNMENTS,
): ReplayProbe {
  return {
    keyId: protector.keyId,
    templates: alignments.map((alignment) =>
      protector.enrol({ ...features, responses: alignResponses(features, alignment).responses }),
    ),
  };
}

/** Distance (0..1) between a stored scan's template and a new scan's probe of the same key. */
export function replayDistance(stored: ProtectedTemplate, probe: ReplayProbe): number {
  if (!sameKey(stored.keyId, probe.keyId))
    throw new RangeError('templates were protected with different keys');
  let best = Infinity;
  for (const template of probe.templates) {
    if (template.words.length !== stored.words.length)
      throw new RangeError('templates have different shapes');
    const d = symbolMismatches(stored.words, 0, template.words, 0, stored.words.length, stored.symbolBits);
    if (d < best) best = d;
  }
  return best / stored.hashes;
}

/** Whether a distance is that of a replay (at most the floor). */
export function isReplayDistance(distance: number): boolean {
  return distance <= REPLAY_MAX_DISTANCE;
}

/**
 * The smallest distance from the probe to any stored template of the probe's key (templates of another key
 * cannot be compared and are skipped), or undefined when there is none.
 */
export function closestDistance(
  probe: ReplayProbe,
  recent: readonly ProtectedTemplate[],
): number | undefined {
  let closest: number | undefined;
  for (const stored of recent) {
    if (!sameKey(stored.keyId, probe.keyId)) continue;
    const distance = replayDistance(stored, probe);
    if (closest === undefined || distance < closest) closest = distance;
  }
  return closest;
}

function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
