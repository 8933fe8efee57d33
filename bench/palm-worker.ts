/**
 * The worker half of `npm run bench:palm`: renders synthetic captures, extracts and protects them, and
 * computes 1:1 distances, all into SharedArrayBuffers that the main thread allocated (see palm.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  codeDistance,
  encodeCode,
  extractFeatures,
  DEFAULT_FEATURE_OPTIONS,
  planesFor,
  type FeatureKind,
  type PalmCode,
} from '../packages/palm/src/features';
import {
  coarseAlignmentsOf,
  DEFAULT_ALIGNMENT_PLAN,
  fineAlignmentsOf,
  TemplateProtector,
  type ProbeTemplates,
  type ProtectedTemplate,
} from '../packages/palm/src/protect';
import { fuseFeatures } from '../packages/palm/src/fusion';
import { coarseDistance, verifyDistance } from '../packages/palm/src/search';
import { createIdentity, renderSample, type SyntheticSetting } from '../packages/palm/src/synthetic';

/** One feature kind's buffers: every sample's enrolled template, probe templates and raw codes. */
export interface KindBuffers {
  kind: FeatureKind;
  identities: number;
  enrol: SharedArrayBuffer;
  probeFine: SharedArrayBuffer;
  probeCoarse: SharedArrayBuffer;
  /** Raw (unprotected) codes per sample and rotation of the plan: planes + 1 mask rows of `grid` words. */
  raw: SharedArrayBuffer;
}

export interface WorkerSetup {
  seed: number;
  samples: number;
  setting: SyntheticSetting;
  key: Uint8Array;
  kinds: KindBuffers[];
}

/** Captures fused into one registration (the first FUSED_CAPTURES samples) or one payment scan (the next ones). */
export const FUSED_CAPTURES = 3;

/** Payment scans per identity from `samples` captures: the captures after registration's, in threes. */
export function fusedProbesPer(samples: number): number {
  return Math.floor((samples - FUSED_CAPTURES) / FUSED_CAPTURES);
}

export type WorkerTask =
  | { task: 'build'; kind: number; from: number; to: number }
  /**
   * The product's protocol into `kind`'s buffers (Competitive Code), 1 + fusedProbesPer(samples) slots per
   * identity: its registration, fused from its first captures, then its payment scans, each fused from the
   * next captures.
   */
  | { task: 'fuse'; kind: number; from: number; to: number }
  | {
      task: 'compare';
      kind: number;
      pairs: SharedArrayBuffer;
      fine: SharedArrayBuffer;
      coarse: SharedArrayBuffer;
      raw: SharedArrayBuffer | undefined;
      from: number;
      to: number;
    };

export const GRID = DEFAULT_FEATURE_OPTIONS.grid;
export const ROI_SIZE = 128;

export function planesOf(kind: FeatureKind): number {
  return planesFor(kind);
}

export function rawWords(kind: FeatureKind): number {
  return (planesOf(kind) + 1) * GRID;
}

export function layout(protector: TemplateProtector) {
  const plan = DEFAULT_ALIGNMENT_PLAN;
  const fineAlignments = fineAlignmentsOf(plan);
  const coarseAlignments = coarseAlignmentsOf(plan);
  return {
    words: protector.words,
    coarseWords: protector.coarseWords,
    fineAlignments,
    coarseAlignments,
    rotations: plan.rotations_deg.length,
  };
}

if (parentPort) {
  const setup = workerData as WorkerSetup;
  const protector = new TemplateProtector(setup.key);
  const shape = layout(protector);
  const views = setup.kinds.map((buffers) => ({
    kind: buffers.kind,
    enrol: new Uint32Array(buffers.enrol),
    probeFine: new Uint32Array(buffers.probeFine),
    probeCoarse: new Uint32Array(buffers.probeCoarse),
    raw: new Uint32Array(buffers.raw),
  }));
  const template = (kindIndex: number, sample: number): ProtectedTemplate => {
    const v = views[kindIndex]!;
    return {
      kind: v.kind,
      symbolBits: protector.symbolBits,
      hashes: protector.parameters.hashes,
      coarseHashes: protector.parameters.coarseHashes,
      keyId: protector.keyId,
      words: v.enrol.subarray(sample * shape.words, (sample + 1) * shape.words),
    };
  };
  const probe = (kindIndex: number, sample: number): ProbeTemplates => {
    const v = views[kindIndex]!;
    const fineSize = shape.fineAlignments * shape.words;
    const coarseSize = shape.coarseAlignments * shape.coarseWords;
    return {
      symbolBits: protector.symbolBits,
      keyId: protector.keyId,
      hashes: protector.parameters.hashes,
      coarseHashes: protector.parameters.coarseHashes,
      fine: v.probeFine.subarray(sample * fineSize, (sample + 1) * fineSize),
      fineAlignments: shape.fineAlignments,
      coarse: v.probeCoarse.subarray(sample * coarseSize, (sample + 1) * coarseSize),
      coarseAlignments: shape.coarseAlignments,
    };
  };
  const rawCode = (kindIndex: number, sample: number, rotation: number): PalmCode => {
    const v = views[kindIndex]!;
    const planes = planesOf(v.kind);
    const size = rawWords(v.kind);
    const base = (sample * shape.rotations + rotation) * size;
    return {
      kind: v.kind,
      grid: GRID,
      planes,
      bits: v.raw.subarray(base, base + planes * GRID),
      mask: v.raw.subarray(base + planes * GRID, base + size),
    };
  };
  const zeroRotation = DEFAULT_ALIGNMENT_PLAN.rotations_deg.indexOf(0);

  parentPort.on('message', (message: WorkerTask) => {
    const started = performance.now();
    const v = views[message.kind]!;
    if (message.task === 'fuse') {
      let fuse_ms = 0;
      for (let identity = message.from; identity < message.to; identity++) {
        const palm = createIdentity(setup.seed, identity);
        const features = Array.from({ length: setup.samples }, (_, s) =>
          extractFeatures(renderSample(palm, s, setup.setting, ROI_SIZE), ROI_SIZE, DEFAULT_FEATURE_OPTIONS),
        );
        const slot = identity * (1 + fusedProbesPer(setup.samples));
        const t0 = performance.now();
        const registration = fuseFeatures(features.slice(0, FUSED_CAPTURES)).features;
        fuse_ms += performance.now() - t0;
        v.enrol.set(protector.enrol(registration).words, slot * shape.words);
        for (let p = 1; p <= fusedProbesPer(setup.samples); p++) {
          const t1 = performance.now();
          const scan = fuseFeatures(features.slice(p * FUSED_CAPTURES, (p + 1) * FUSED_CAPTURES)).features;
          fuse_ms += performance.now() - t1;
          const probe = protector.probe(scan);
          v.probeFine.set(probe.fine, (slot + p) * shape.fineAlignments * shape.words);
          v.probeCoarse.set(probe.coarse, (slot + p) * shape.coarseAlignments * shape.coarseWords);
        }
      }
      parentPort!.postMessage({ done: true, fuse_ms, elapsed_ms: performance.now() - started });
      return;
    }
    if (message.task === 'build') {
      const options = { ...DEFAULT_FEATURE_OPTIONS, kind: v.kind };
      let extract_ms = 0;
      let protect_ms = 0;
      for (let identity = message.from; identity < message.to; identity++) {
        const palm = createIdentity(setup.seed, identity);
        for (let s = 0; s < setup.samples; s++) {
          const sample = identity * setup.samples + s;
          const roi = renderSample(palm, s, setup.setting, ROI_SIZE);
          const t0 = performance.now();
          const features = extractFeatures(roi, ROI_SIZE, options);
          const t1 = performance.now();
          v.enrol.set(protector.enrol(features).words, sample * shape.words);
          const p = protector.probe(features);
          protect_ms += performance.now() - t1;
          extract_ms += t1 - t0;
          v.probeFine.set(p.fine, sample * shape.fineAlignments * shape.words);
          v.probeCoarse.set(p.coarse, sample * shape.coarseAlignments * shape.coarseWords);
          DEFAULT_ALIGNMENT_PLAN.rotations_deg.forEach((rotation_deg, r) => {
            const code = encodeCode(features, { rotation_deg, dx_cells: 0, dy_cells: 0 });
            const base = (sample * shape.rotations + r) * rawWords(v.kind);
            v.raw.set(code.bits, base);
            v.raw.set(code.mask, base + code.bits.length);
          });
        }
      }
      parentPort!.postMessage({
        done: true,
        extract_ms,
        protect_ms,
        elapsed_ms: performance.now() - started,
      });
      return;
    }
    const pairs = new Int32Array(message.pairs);
    const fine = new Float32Array(message.fine);
    const coarse = new Float32Array(message.coarse);
    const raw = message.raw ? new Float32Array(message.raw) : undefined;
    for (let i = message.from; i < message.to; i++) {
      const probeSample = pairs[2 * i]!;
      const gallerySample = pairs[2 * i + 1]!;
      const stored = template(message.kind, gallerySample);
      const probed = probe(message.kind, probeSample);
      fine[i] = verifyDistance(stored, probed);
      coarse[i] = coarseDistance(stored, probed);
      if (raw && i < raw.length) {
        // The unprotected baseline: the same rotations and shifts, on the codes themselves.
        const enrolled = rawCode(message.kind, gallerySample, zeroRotation);
        let best = 1;
        for (let r = 0; r < shape.rotations; r++) {
          best = Math.min(
            best,
            codeDistance(
              enrolled,
              rawCode(message.kind, probeSample, r),
              DEFAULT_ALIGNMENT_PLAN.maxShift_cells,
            ),
          );
        }
        raw[i] = best;
      }
    }
    parentPort!.postMessage({ done: true, elapsed_ms: performance.now() - started });
  });
}
