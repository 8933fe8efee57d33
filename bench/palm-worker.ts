/**
 * The worker half of `npm run bench:palm` and `npm run bench:palm-calibrate`: captures the holds of one palm
 * model at one nuisance level (bench/palm-capture.ts), extracts, fuses and protects their scans, and computes
 * 1:1 distances, all into SharedArrayBuffers that the main thread allocated and sends with each task.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  codeDistanceAround,
  encodeCode,
  planesFor,
  popcount32,
  DEFAULT_FEATURE_OPTIONS,
  ORIENTATIONS,
  type Alignment,
  type FeatureKind,
  type PalmCode,
  type PalmFeatures,
} from '../packages/palm/src/features';
import {
  DEFAULT_ALIGNMENT_PLAN,
  type GridAlignment,
  type ProbeHasher,
  TemplateProtector,
  type ProbeTemplates,
  type ProtectedTemplate,
} from '../packages/palm/src/protect';
import {
  coarseDistance,
  DEFAULT_POLISH,
  polishDistance,
  polishPose,
  symbolMismatches,
} from '../packages/palm/src/search';
import { normaliserFor, type CohortStats } from '../packages/palm/src/score-normalisation';
import { extractFeatures } from '../packages/palm/src/features';
import { fuseFeatures, HOLD_FUSION_PLAN } from '../packages/palm/src/fusion';
import { createRng } from '../packages/palm/src/random';
import type { NuisanceLevel } from './palm-data/camera';
import {
  fuseScan,
  gatedScan,
  Hold,
  holdSeed,
  palmOf,
  ROI_SIZE,
  SCAN_FRAMES,
  type ModelName,
} from './palm-capture';

/** One kind of scan's buffers: every slot's enrolled template, probe templates and raw codes. */
export interface KindBuffers {
  kind: FeatureKind;
  slots: number;
  enrol: SharedArrayBuffer;
  probeFine: SharedArrayBuffer;
  probeCoarse: SharedArrayBuffer;
  /** Raw (unprotected) codes per slot and rotation of the plan: planes + 1 mask rows of `grid` words. */
  raw: SharedArrayBuffer;
  /** Per slot: 1 when the scan was made, 0 when it was not (too few good frames, or frames that disagree). */
  made: SharedArrayBuffer;
  /**
   * Per slot with a probe: its cohort statistics (score-normalisation.ts), mean and standard deviation as two
   * float64, which the server's decision normalises the probe's distances with.
   */
  cohort: SharedArrayBuffer;
  /**
   * Per slot with a probe: its filter responses (grid² × ORIENTATIONS float32), from which stage 2's polish
   * (search.ts polishDistance) hashes the poses between the grid's, as the server does from the scan.
   */
  features: SharedArrayBuffer;
}

/** The scans of one palm model at one level, slot = identity × holds + hold. */
export interface ConfigBuffers {
  /** One frame of the hold (frame 0); the calibration makes none. */
  single?: KindBuffers;
  /** The hold's first SCAN_FRAMES frames fused. */
  fused: KindBuffers;
  /** The first frame that passes the quality gate (holding the palm again when none does). */
  gatedSingle?: KindBuffers;
  /** The first SCAN_FRAMES frames that pass the quality gate, fused. */
  gatedFused?: KindBuffers;
}

export interface BuildConfig {
  model: ModelName;
  level: NuisanceLevel;
  seed: number;
  holds: number;
  /** Frames captured per hold (the ungated scans use the first SCAN_FRAMES). */
  frames: number;
  /** Holds a gated scan may take in all before it gives up. */
  maxHolds: number;
  /**
   * 'server': hold 0 is the registration (its enrolled template only) and the later holds payment scans
   * (their probe templates only), as the server uses them; 'both': every hold makes both.
   */
  roles: 'server' | 'both';
  /**
   * Holds a registration is fused from (decision 049; 1 when absent). With more, every fused enrolled
   * template (ungated and gated; the one-capture scans keep one frame) is its hold's fused features with the
   * palm's holds numbered 500, 501, … (each fused alone, not gated) aligned to it and averaged in (fusion.ts
   * HOLD_FUSION_PLAN); probe templates are the hold alone. With roles 'both' a slot's probe is then its hold
   * alone and its registration that hold with the others.
   */
  enrolHolds?: number;
}

export interface BuildTally {
  capture_ms: number;
  extract_ms: number;
  protect_ms: number;
  fuse_ms: number;
  scans: number;
  /** Frames judged by the gate (every frame of the ungated holds). */
  frames: number;
  refused: number;
  /** Refused frames naming each issue (a frame may name several). */
  issues: Record<string, number>;
  /** Refused frames by their most important issue. */
  firstIssue: Record<string, number>;
  /** Extra holds the gated scans took. */
  extraHolds: number;
  /** Usable cells (the Competitive Code's mask) summed over the one-capture scans, and their number. */
  dataPoints: number;
  dataPointScans: number;
}

export type WorkerTask =
  | { task: 'build'; config: BuildConfig; buffers: ConfigBuffers; from: number; to: number }
  | {
      task: 'compare';
      buffers: KindBuffers;
      pairs: SharedArrayBuffer;
      fine: SharedArrayBuffer;
      coarse: SharedArrayBuffer;
      raw: SharedArrayBuffer | undefined;
      from: number;
      to: number;
    };

export const GRID = DEFAULT_FEATURE_OPTIONS.grid;

export function rawWords(kind: FeatureKind): number {
  return (planesFor(kind) + 1) * GRID;
}

export interface Layout {
  words: number;
  coarseWords: number;
  fineAlignments: number;
  coarseAlignments: number;
  /** The first so many coarse alignments are those of the cascade's first passes (ProbeTemplates). */
  firstPassAlignments: number;
  /** The unprotected baseline's probe poses (each rotation × scale of the plan; the shifts in codeDistance). */
  poses: number;
}

/** The templates' sizes, read from a probe the protector makes (so they follow the engine's plan). */
export function layout(protector: TemplateProtector): Layout {
  const rng = createRng(1);
  const image = Uint8Array.from({ length: ROI_SIZE * ROI_SIZE }, () => 64 + rng.int(128));
  const probe = protector.probe(extractFeatures(image, ROI_SIZE));
  return {
    words: protector.words,
    coarseWords: protector.coarseWords,
    fineAlignments: probe.fineAlignments,
    coarseAlignments: probe.coarseAlignments,
    firstPassAlignments: probe.firstPassAlignments ?? probe.coarseAlignments,
    poses: POSES.length,
  };
}

/** The plan's poses, for the unprotected baseline: every rotation at every scale. */
const POSES = DEFAULT_ALIGNMENT_PLAN.rotations_deg.flatMap((rotation_deg) =>
  (DEFAULT_ALIGNMENT_PLAN.scales ?? [1]).map((scale) => ({ rotation_deg, scale })),
);
const IDENTITY_POSE = POSES.findIndex((p) => p.rotation_deg === 0 && p.scale === 1);

export function kindBuffers(shape: Layout, slots: number, raw: boolean): KindBuffers {
  const kind: FeatureKind = 'competitive';
  return {
    kind,
    slots,
    enrol: new SharedArrayBuffer(slots * shape.words * 4),
    probeFine: new SharedArrayBuffer(slots * shape.fineAlignments * shape.words * 4),
    probeCoarse: new SharedArrayBuffer(slots * shape.coarseAlignments * shape.coarseWords * 4),
    raw: new SharedArrayBuffer(raw ? slots * shape.poses * rawWords(kind) * 4 : 0),
    made: new SharedArrayBuffer(slots),
    cohort: new SharedArrayBuffer(slots * 2 * 8),
    features: new SharedArrayBuffer(slots * FEATURE_VALUES * 4),
  };
}

/** Filter responses per scan: the grid's cells × ORIENTATIONS. */
const FEATURE_VALUES = GRID * GRID * ORIENTATIONS;

/** A probe slot's features (written with its probe templates). */
export function featuresOf(kind: KindBuffers, slot: number): PalmFeatures {
  return {
    options: DEFAULT_FEATURE_OPTIONS,
    grid: GRID,
    responses: new Float32Array(kind.features, slot * FEATURE_VALUES * 4, FEATURE_VALUES),
  };
}

export function probeOf(
  protector: TemplateProtector,
  shape: Layout,
  kind: KindBuffers,
  slot: number,
): ProbeTemplates {
  const fineSize = shape.fineAlignments * shape.words;
  const coarseSize = shape.coarseAlignments * shape.coarseWords;
  return {
    symbolBits: protector.symbolBits,
    keyId: protector.keyId,
    hashes: protector.parameters.hashes,
    coarseHashes: protector.parameters.coarseHashes,
    fine: new Uint32Array(kind.probeFine, slot * fineSize * 4, fineSize),
    fineAlignments: shape.fineAlignments,
    coarse: new Uint32Array(kind.probeCoarse, slot * coarseSize * 4, coarseSize),
    coarseAlignments: shape.coarseAlignments,
    firstPassAlignments: shape.firstPassAlignments,
  };
}

export function templateOf(
  protector: TemplateProtector,
  shape: Layout,
  kind: KindBuffers,
  slot: number,
): ProtectedTemplate {
  return {
    kind: kind.kind,
    symbolBits: protector.symbolBits,
    hashes: protector.parameters.hashes,
    coarseHashes: protector.parameters.coarseHashes,
    keyId: protector.keyId,
    words: new Uint32Array(kind.enrol, slot * shape.words * 4, shape.words),
  };
}

/** A probe slot's cohort statistics (written when its probe templates were made). */
export function cohortOf(kind: KindBuffers, slot: number): CohortStats {
  const v = new Float64Array(kind.cohort, slot * 16, 2);
  return { mean: v[0]!, sd: v[1]! };
}

/** What a slot's scan is made into: its enrolled template, its probe templates, or both. */
export interface Roles {
  enrol: boolean;
  probe: boolean;
}

/** Writes a scan's templates (and raw codes, when the kind keeps them) into its slot. */
function store(
  protector: TemplateProtector,
  shape: Layout,
  kind: KindBuffers,
  slot: number,
  features: PalmFeatures,
  roles: Roles,
): number {
  const t0 = performance.now();
  if (roles.enrol) new Uint32Array(kind.enrol).set(protector.enrol(features).words, slot * shape.words);
  if (roles.probe) {
    const p = protector.probe(features);
    if (features.grid !== GRID || features.responses.length !== FEATURE_VALUES) {
      throw new RangeError('features of another grid');
    }
    new Float32Array(kind.features).set(features.responses, slot * FEATURE_VALUES);
    new Uint32Array(kind.probeFine).set(p.fine, slot * shape.fineAlignments * shape.words);
    new Uint32Array(kind.probeCoarse).set(p.coarse, slot * shape.coarseAlignments * shape.coarseWords);
  }
  const elapsed = performance.now() - t0;
  if (roles.probe) {
    // The cohort's statistics as the server takes them for this probe (not counted as protection time).
    const stats = normaliserFor(protector).stats(probeOf(protector, shape, kind, slot));
    new Float64Array(kind.cohort).set([stats.mean, stats.sd], slot * 2);
  }
  if (kind.raw.byteLength > 0) {
    const raw = new Uint32Array(kind.raw);
    POSES.forEach(({ rotation_deg, scale }, r) => {
      const code = encodeCode(features, { rotation_deg, dx_cells: 0, dy_cells: 0, scale });
      const base = (slot * shape.poses + r) * rawWords(kind.kind);
      raw.set(code.bits, base);
      raw.set(code.mask, base + code.bits.length);
    });
  }
  new Uint8Array(kind.made)[slot] = 1;
  return elapsed;
}

/** A scan's templates copied from one kind's slot to another's (the same scan made twice is made once). */
function copySlot(shape: Layout, from: KindBuffers, to: KindBuffers, slot: number): void {
  const copy = (a: SharedArrayBuffer, b: SharedArrayBuffer, size: number) =>
    new Uint32Array(b, slot * size * 4, size).set(new Uint32Array(a, slot * size * 4, size));
  copy(from.enrol, to.enrol, shape.words);
  copy(from.probeFine, to.probeFine, shape.fineAlignments * shape.words);
  copy(from.probeCoarse, to.probeCoarse, shape.coarseAlignments * shape.coarseWords);
  new Float32Array(to.features, slot * FEATURE_VALUES * 4, FEATURE_VALUES).set(
    new Float32Array(from.features, slot * FEATURE_VALUES * 4, FEATURE_VALUES),
  );
  new Float64Array(to.cohort, slot * 16, 2).set(new Float64Array(from.cohort, slot * 16, 2));
  new Uint8Array(to.made)[slot] = 1;
}

function rawCode(shape: Layout, kind: KindBuffers, slot: number, pose: number): PalmCode {
  const planes = planesFor(kind.kind);
  const size = rawWords(kind.kind);
  const base = (slot * shape.poses + pose) * size;
  const raw = new Uint32Array(kind.raw);
  return {
    kind: kind.kind,
    grid: GRID,
    planes,
    bits: raw.subarray(base, base + planes * GRID),
    mask: raw.subarray(base + planes * GRID, base + size),
  };
}

/** Builds identities [from, to) of a configuration into its buffers. */
export function buildIdentities(
  protector: TemplateProtector,
  shape: Layout,
  config: BuildConfig,
  buffers: ConfigBuffers,
  from: number,
  to: number,
): BuildTally {
  const tally: BuildTally = {
    capture_ms: 0,
    extract_ms: 0,
    protect_ms: 0,
    fuse_ms: 0,
    scans: 0,
    frames: 0,
    refused: 0,
    issues: {},
    firstIssue: {},
    extraHolds: 0,
    dataPoints: 0,
    dataPointScans: 0,
  };
  const fuse = (features: PalmFeatures[]) => {
    const t0 = performance.now();
    const fused = fuseScan(features);
    tally.fuse_ms += performance.now() - t0;
    return fused;
  };
  const enrolHolds = config.enrolHolds ?? 1;
  for (let identity = from; identity < to; identity++) {
    const palm = palmOf(config.model, config.seed, identity);
    // A registration of several holds (decision 049): the registration hold's fused features, then the
    // palm's holds 500, 501, … (each fused alone, never gated) aligned to it and averaged in.
    let extraHolds: (PalmFeatures | undefined)[] | undefined;
    const registrationOf = (features: PalmFeatures): PalmFeatures | undefined => {
      if (enrolHolds === 1) return features;
      extraHolds ??= Array.from({ length: enrolHolds - 1 }, (_, k) => {
        const other = new Hold(
          palm,
          config.level,
          holdSeed(config.seed, identity, 500 + k, config.level),
          SCAN_FRAMES,
        );
        const made = fuse(Array.from({ length: SCAN_FRAMES }, (_, f) => other.features(f)));
        tally.extract_ms += other.extract_ms;
        tally.capture_ms += other.capture_ms;
        return made;
      });
      const others = extraHolds.filter((f): f is PalmFeatures => f !== undefined);
      if (others.length < extraHolds.length) return undefined;
      const t0 = performance.now();
      const registration = fuseFeatures([features, ...others], HOLD_FUSION_PLAN).features;
      tally.fuse_ms += performance.now() - t0;
      return registration;
    };
    /** A fused scan's templates: its enrolled one from the registration of several holds when asked. */
    const storeFused = (kind: KindBuffers, slot: number, features: PalmFeatures, roles: Roles) => {
      if (enrolHolds === 1 || !roles.enrol) {
        tally.protect_ms += store(protector, shape, kind, slot, features, roles);
        return;
      }
      const registration = registrationOf(features);
      if (!registration) return;
      tally.protect_ms += store(protector, shape, kind, slot, registration, { enrol: true, probe: false });
      if (roles.probe)
        tally.protect_ms += store(protector, shape, kind, slot, features, { enrol: false, probe: true });
    };
    for (let h = 0; h < config.holds; h++) {
      const slot = identity * config.holds + h;
      const roles: Roles =
        config.roles === 'both' ? { enrol: true, probe: true } : { enrol: h === 0, probe: h > 0 };
      const capture = (hold: number) =>
        new Hold(palm, config.level, holdSeed(config.seed, identity, hold, config.level), config.frames);
      const hold = capture(h);
      const holds = [hold];
      if (buffers.single) {
        tally.protect_ms += store(protector, shape, buffers.single, slot, hold.features(0), roles);
        tally.dataPoints += encodeCode(hold.features(0)).mask.reduce((a, word) => a + popcount32(word), 0);
        tally.dataPointScans++;
      }
      const fused = fuse(Array.from({ length: SCAN_FRAMES }, (_, f) => hold.features(f)));
      if (fused) storeFused(buffers.fused, slot, fused, roles);
      tally.scans += 2;
      if (!buffers.gatedFused && !buffers.gatedSingle) continue;
      // The gate's table judges the frames of the ungated scan (the hold's first SCAN_FRAMES).
      for (let f = 0; f < SCAN_FRAMES; f++) {
        const quality = hold.quality(f);
        tally.frames++;
        if (quality.passes) continue;
        tally.refused++;
        for (const issue of quality.issues) tally.issues[issue] = (tally.issues[issue] ?? 0) + 1;
        const first = quality.issues[0] ?? 'unnamed';
        tally.firstIssue[first] = (tally.firstIssue[first] ?? 0) + 1;
      }
      // Retry holds are numbered apart from the ungated holds (another seed for each).
      const retry = (attempt: number) => {
        while (holds.length <= attempt) {
          holds.push(capture(1000 + 10 * h + holds.length));
        }
        return holds[attempt]!;
      };
      if (buffers.gatedSingle) {
        const scan = gatedScan(hold, retry, 1, config.maxHolds);
        if (scan) {
          tally.extraHolds += scan.holds - 1;
          if (buffers.single && scan.hold === hold && scan.frames[0] === 0) {
            copySlot(shape, buffers.single, buffers.gatedSingle, slot);
          } else {
            const features = scan.hold.features(scan.frames[0]!);
            tally.protect_ms += store(protector, shape, buffers.gatedSingle, slot, features, roles);
          }
        }
      }
      if (buffers.gatedFused) {
        const scan = gatedScan(hold, retry, SCAN_FRAMES, config.maxHolds);
        if (scan) {
          tally.extraHolds += scan.holds - 1;
          // The ungated scan's own frames: the same scan (made, or refused for frames that disagree).
          if (scan.hold === hold && scan.frames.every((f, i) => f === i)) {
            // (Not when the slot was left unmade: a registration whose other holds' frames disagree.)
            if (fused && new Uint8Array(buffers.fused.made)[slot])
              copySlot(shape, buffers.fused, buffers.gatedFused, slot);
          } else {
            const features = fuse(scan.frames.map((f) => scan.hold.features(f)));
            if (features) storeFused(buffers.gatedFused, slot, features, roles);
          }
        }
      }
      for (const h2 of holds) {
        tally.extract_ms += h2.extract_ms;
        tally.capture_ms += h2.capture_ms;
      }
    }
  }
  return tally;
}

const PLAN = DEFAULT_ALIGNMENT_PLAN;
const SPAN = 2 * PLAN.maxShift_cells + 1;

/** The alignment of a whole-plan probe with the fewest mismatches against a template, and that count. */
function bestAlignmentOf(
  stored: ProtectedTemplate,
  probe: ProbeTemplates,
): { alignment: GridAlignment; mismatches: number } {
  const words = stored.words.length;
  let bestAt = 0;
  let fewest = Infinity;
  for (let a = 0; a < probe.fineAlignments; a++) {
    const d = symbolMismatches(stored.words, 0, probe.fine, a * words, words, stored.symbolBits);
    if (d < fewest) {
      fewest = d;
      bestAt = a;
    }
  }
  // The probe's order (TemplateProtector.probe): scale, rotation, dy, dx.
  const rotations = PLAN.rotations_deg.length;
  const dx = (bestAt % SPAN) - PLAN.maxShift_cells;
  const dy = (Math.floor(bestAt / SPAN) % SPAN) - PLAN.maxShift_cells;
  const pose = Math.floor(bestAt / (SPAN * SPAN));
  return { alignment: { r: pose % rotations, s: Math.floor(pose / rotations), dx, dy }, mismatches: fewest };
}

/**
 * The unprotected baseline's polish: polishDistance's pattern search (DEFAULT_POLISH's steps, rounds and moves)
 * over rotation, scale and sub-cell shifts, from the best of the plan's rotations and scales (`from`) at its
 * best whole-cell shift (`start`); each pose's code is compared under the whole-cell shifts within one cell
 * of that shift (the sub-cell part of a shift is in the pose); `codeAt` gives the probe's code under a pose.
 */
function polishRaw(
  enrolled: PalmCode,
  codeAt: (pose: Alignment) => PalmCode,
  from: { rotation_deg: number; scale: number },
  start: { distance: number; dx: number; dy: number },
): number {
  const at = (p: Readonly<Alignment>) =>
    codeDistanceAround(enrolled, codeAt(p), start.dx, start.dy, 1).distance;
  return polishPose(
    { rotation_deg: from.rotation_deg, scale: from.scale, dx_cells: 0, dy_cells: 0 },
    start.distance,
    at,
    (q) => Math.abs(q.dx_cells) <= 1 && Math.abs(q.dy_cells) <= 1,
  );
}

/** Distances of pairs [from, to) (probe slot, gallery slot): full, coarse, and raw where asked. */
export function compareRange(
  protector: TemplateProtector,
  shape: Layout,
  buffers: KindBuffers,
  pairs: Int32Array,
  fine: Float32Array,
  coarse: Float32Array,
  raw: Float32Array | undefined,
  from: number,
  to: number,
): void {
  // The pairs in the order of their probes, so one probe's hasher (its codes and the poses it has hashed)
  // serves all its pairs in the range: the same distances, hashed once per probe rather than once per pair.
  const order = Array.from({ length: to - from }, (_, k) => from + k).sort(
    (x, y) => pairs[2 * x]! - pairs[2 * y]! || x - y,
  );
  let hasherSlot = -1;
  let hasher: ProbeHasher | undefined;
  /** The unprotected codes of the current probe under the poses its polish has tried. */
  const rawCodes = new Map<string, PalmCode>();
  const rawCodeAt = (p: Alignment) => {
    const key = `${p.rotation_deg}/${p.scale}/${p.dx_cells}/${p.dy_cells}`;
    let code = rawCodes.get(key);
    if (!code) {
      code = encodeCode(featuresOf(buffers, hasherSlot), p);
      rawCodes.set(key, code);
    }
    return code;
  };
  for (const i of order) {
    const probeSlot = pairs[2 * i]!;
    const gallerySlot = pairs[2 * i + 1]!;
    const stored = templateOf(protector, shape, buffers, gallerySlot);
    const probed = probeOf(protector, shape, buffers, probeSlot);
    // Stage 2 as the server scores a candidate: the best alignment of the plan's full grid, then the polish
    // around it (search.ts polishDistance) from the probe's features.
    const best = bestAlignmentOf(stored, probed);
    if (!hasher || hasherSlot !== probeSlot) {
      hasher = protector.prober(featuresOf(buffers, probeSlot));
      hasherSlot = probeSlot;
      rawCodes.clear();
    }
    fine[i] =
      polishDistance(
        stored.words,
        hasher,
        best.alignment,
        stored.symbolBits,
        DEFAULT_POLISH,
        best.mismatches,
      ) / stored.hashes;
    coarse[i] = coarseDistance(stored, probed);
    if (raw && i < raw.length) {
      // The unprotected baseline: the same rotations, scales and shifts, on the codes themselves.
      // Polished the same way as the protected distance, so the protection cost compares like with like.
      const enrolled = rawCode(shape, buffers, gallerySlot, IDENTITY_POSE);
      const reach = DEFAULT_ALIGNMENT_PLAN.maxShift_cells;
      let best = { distance: 1, dx: 0, dy: 0 };
      let bestPose = IDENTITY_POSE;
      for (let r = 0; r < shape.poses; r++) {
        const d = codeDistanceAround(enrolled, rawCode(shape, buffers, probeSlot, r), 0, 0, reach);
        if (d.distance < best.distance) {
          best = d;
          bestPose = r;
        }
      }
      raw[i] = polishRaw(enrolled, rawCodeAt, POSES[bestPose]!, best);
    }
  }
}

if (parentPort) {
  const key = (workerData as { key: Uint8Array }).key;
  const protector = new TemplateProtector(key);
  const shape = layout(protector);
  parentPort.on('message', (message: WorkerTask) => {
    const started = performance.now();
    if (message.task === 'build') {
      const tally = buildIdentities(
        protector,
        shape,
        message.config,
        message.buffers,
        message.from,
        message.to,
      );
      parentPort!.postMessage({ ...tally, elapsed_ms: performance.now() - started });
      return;
    }
    compareRange(
      protector,
      shape,
      message.buffers,
      new Int32Array(message.pairs),
      new Float32Array(message.fine),
      new Float32Array(message.coarse),
      message.raw ? new Float32Array(message.raw) : undefined,
      message.from,
      message.to,
    );
    parentPort!.postMessage({ done: true, elapsed_ms: performance.now() - started });
  });
}
