/**
 * Cohort score normalisation (issue 26). A probe's distance to a template depends on the probe as well as on
 * the palms: a palm whose lines are faint, or a set of palms drawn another way, sits closer to or further from
 * everyone. Each probe is therefore also compared with a fixed cohort of palms that are nobody's (drawn by the
 * engine's own generator, synthetic.ts, from a seed of their own), and its distances are read as standard
 * scores against its own cohort distances: z = (distance − cohort mean) / cohort standard deviation. Impostor
 * z-scores of different palm populations share one tail far better than raw distances do, so one threshold
 * (DEFAULT_NORMALISED_IMPOSTOR_MODEL) holds on palms it was not fitted to.
 *
 * The cohort is protected with the same key as the gallery (it is just more templates), so a probe is only
 * ever compared with protected templates. Its statistics use the probe under the plan's coarse grid
 * (coarseGridOf, 135 alignments): the probe a payment's coarse-to-fine search hashes anyway, so normalising
 * costs 256 comparisons (both halves) and no hashing; a probe of the whole plan is cut down to the same
 * alignments.
 */
import { extractFeatures, type PalmFeatures } from './features';
import { mirroredFrame } from './roi';
import {
  coarseGridOf,
  coarseGridProbeOf,
  DEFAULT_ALIGNMENT_PLAN,
  fineAlignmentsOf,
  type ProbeTemplates,
  type ProtectedTemplate,
  type TemplateProtector,
} from './protect';
import {
  decisionPolicy,
  verifyDistance,
  type DecisionPolicy,
  type ImpostorModel,
  type Match,
  type SearchResult,
} from './search';
import { createIdentity, renderSample } from './synthetic';

/** The cohort's seed: its palms are none of the benchmark's (evaluation, calibration, held-back) or tests'. */
export const COHORT_SEED = 0x0c0_4a7;
/** Palms in the cohort: enough for the mean and spread of a probe's distances to within a few percent. */
export const COHORT_SIZE = 128;
const COHORT_ROI = 128;

let cohortFeatureCache: { drawn: readonly PalmFeatures[]; mirrored: readonly PalmFeatures[] } | undefined;

/**
 * The cohort's palms: one capture each of COHORT_SIZE synthetic palms as drawn, and the same captures mirrored
 * left to right (the same for every key). A gallery can hold palms of either orientation (a left hand from the
 * guide box is stored mirrored), and a payment from the guide box is searched both ways round: each probe is
 * read against the nearer half of the cohort (decision 042), never against palms that are all the other way
 * round, which would make any two palms of the other orientation look alike.
 */
export function cohortFeatures(): { drawn: readonly PalmFeatures[]; mirrored: readonly PalmFeatures[] } {
  if (!cohortFeatureCache) {
    const frames = Array.from({ length: COHORT_SIZE }, (_, i) =>
      renderSample(createIdentity(COHORT_SEED, i), 0, 'medium', COHORT_ROI),
    );
    cohortFeatureCache = {
      drawn: frames.map((frame) => extractFeatures(frame, COHORT_ROI)),
      mirrored: frames.map((frame) => extractFeatures(mirroredFrame(frame, COHORT_ROI), COHORT_ROI)),
    };
  }
  return cohortFeatureCache;
}

const FULL_ALIGNMENTS = fineAlignmentsOf(DEFAULT_ALIGNMENT_PLAN);
const GRID_ALIGNMENTS = coarseGridOf(DEFAULT_ALIGNMENT_PLAN).length;

export interface CohortStats {
  mean: number;
  sd: number;
}

/** The cohort under one protector's key. */
export class ScoreNormaliser {
  /** The cohort's palms as drawn. */
  readonly templates: readonly ProtectedTemplate[];
  /** The same palms mirrored. */
  readonly mirroredTemplates: readonly ProtectedTemplate[];

  constructor(protector: TemplateProtector) {
    const cohort = cohortFeatures();
    this.templates = cohort.drawn.map((features) => protector.enrol(features));
    this.mirroredTemplates = cohort.mirrored.map((features) => protector.enrol(features));
  }

  /**
   * The probe's distances to the cohort under the coarse grid's alignments: their mean and standard deviation.
   * `probe`: the coarse grid's probe (ProbeHasher.probe(coarseGridOf(plan))) or a probe of the whole plan.
   */
  stats(probe: ProbeTemplates): CohortStats {
    if (probe.fineAlignments === FULL_ALIGNMENTS) probe = coarseGridProbeOf(probe);
    if (probe.fineAlignments !== GRID_ALIGNMENTS) {
      throw new RangeError('cohort statistics need the coarse grid or the whole plan');
    }
    // The nearer half of the cohort: the palms as drawn or mirrored, whichever the probe is closer to on
    // average (decision 042). Read against the further half, a probe's distances to palms of its own kind
    // would all look close: mirrored palms read against the drawn half were matched by strangers 20 times as
    // often as the policy targets.
    const drawn = statsOver(this.templates, probe);
    const other = statsOver(this.mirroredTemplates, probe);
    return other.mean < drawn.mean ? other : drawn;
  }
}

function statsOver(templates: readonly ProtectedTemplate[], probe: ProbeTemplates): CohortStats {
  let sum = 0;
  let sum2 = 0;
  for (const template of templates) {
    const d = verifyDistance(template, probe);
    sum += d;
    sum2 += d * d;
  }
  const n = templates.length;
  const mean = sum / n;
  // A floor on the spread: a probe with (almost) no cohort spread must not turn tiny gaps into large z.
  const sd = Math.max(MIN_COHORT_SD, Math.sqrt(Math.max(0, sum2 / n - mean * mean)));
  return { mean, sd };
}

/** The smallest cohort standard deviation used (a fifth of the typical one, about 0.015). */
export const MIN_COHORT_SD = 0.003;

/** A distance as a standard score against the probe's cohort (negative: closer than the cohort). */
export function normalisedScore(distance: number, stats: Readonly<CohortStats>): number {
  return (distance - stats.mean) / stats.sd;
}

const normalisers = new WeakMap<TemplateProtector, ScoreNormaliser>();

/** One normaliser per protector, made on first use (128 palms drawn and protected once per key). */
export function normaliserFor(protector: TemplateProtector): ScoreNormaliser {
  let normaliser = normalisers.get(protector);
  if (!normaliser) {
    normaliser = new ScoreNormaliser(protector);
    normalisers.set(protector, normaliser);
  }
  return normaliser;
}

/** A search result with its distances as standard scores against the probe's cohort (the order is kept). */
export function normaliseResult(result: SearchResult, stats: Readonly<CohortStats>): SearchResult {
  const z = (match: Match | undefined): Match | undefined =>
    match && { id: match.id, distance: normalisedScore(match.distance, stats) };
  return { ...result, best: z(result.best), second: z(result.second) };
}

/**
 * The impostor model of normalised scores (their lower tail as a normal tail, as ImpostorModel), fitted by
 * `npm run bench:palm-calibrate` to fused-scan impostor scores of model A (the engine's own generator) at
 * every nuisance level on the calibration seeds, 300 palms × 299 per level, each pair scored as stage 2 scores
 * a candidate (the ±25° / ±4-cell plan, then search.ts polishDistance; decision 041): easy −1.2192 / 1.8572,
 * medium −1.2455 / 1.8813, hard −1.1392 / 2.0009. The hard level's tail is the heaviest over the server's FMRs
 * (1e-3 / N for N up to 10^6), so its fit is the model (the lower envelope of the three). On the calibration
 * scores its threshold for 1e-3 gives 0.48e-3, 0.67e-3 and 0.90e-3 at easy, medium and hard; for 1e-4,
 * 0.78e-4, 0.45e-4 and 1.56e-4; for 1e-5, 4.5e-5, 0 and 3.3e-5 (4, 0 and 3 pairs of 89,700: below 1e-4 the
 * polished tail is heavier than the normal fit on this sample). Model B, the held-out palms, is only ever
 * measured against it (bench/palm-threshold.test.ts, `npm run bench:palm`). Before the polish (decision 040):
 * −0.513 / 1.829.
 */
export const DEFAULT_NORMALISED_IMPOSTOR_MODEL: Readonly<ImpostorModel> = { location: -1.139, scale: 2.001 };

/**
 * The smallest gap between the best and the second-best id, in standard scores: the raw policy's 0.02 of a
 * distance over a typical cohort spread of 0.016.
 */
export const NORMALISED_MARGIN = 1.25;

/** The server's decision policy on normalised scores, for a gallery of `gallerySize` at `targetFpir`. */
export function normalisedDecisionPolicy(options: {
  gallerySize: number;
  targetFpir?: number;
  minAgreeingFrames?: number;
}): DecisionPolicy {
  return decisionPolicy({
    ...options,
    margin: NORMALISED_MARGIN,
    model: DEFAULT_NORMALISED_IMPOSTOR_MODEL,
  });
}
