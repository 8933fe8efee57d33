/**
 * Template protection after ISO/IEC 24745: what is stored is not the palm code but a keyed Index-of-Max hash
 * of it (Jin et al., "Ranking-based locality sensitive hashing-enabled cancelable biometrics: Index-of-Max
 * hashing", IEEE TIFS 2018, Gaussian random projection variant, made sparse).
 *
 * For each of `hashes` outputs, `candidates` keyed random projections of the code (each a weighted sum of
 * `taps` code bits read as ±1, masked cells as 0) are computed and only the index of the largest is kept.
 * Two codes that agree on most bits agree on most indices, so matching stays a Hamming-style count of
 * disagreeing symbols; but an index says only which of a few sums was largest, not their values, so the
 * code cannot be solved back from the hash (many codes give the same hash).
 *
 * - Irreversible: the map is many-to-one and ranking-based, and its projections are secret (derived from
 *   the key). An attacker holding both a template and the key can still search for *a* code that hashes
 *   close to it (a pre-image good enough to match under that key); the remedy is the next point.
 * - Renewable and unlinkable: a new key gives new projections, and a template made under one key says
 *   nothing measurable about a template of the same palm under another (the test checks that cross-key
 *   genuine distances look like impostor ones). Rotating the key means re-enrolling every palm.
 * - A keyed XOR whitening layer on top makes the stored bits uniform: raw Index-of-Max symbols are biased
 *   (ties in empty areas go to index 0), which would show where a palm has no lines.
 *
 * Alignment: a protected template can no longer be shifted or rotated, so the probe does it before
 * hashing. The enrolled template is hashed once, unaligned; the probe is hashed under every alignment of
 * a plan (a few rotations and shifts), and matching takes the best. The raw code never leaves memory.
 *
 * Coarse template: the first `coarseHashes` symbols of the same template. Fewer symbols are a noisier but
 * unbiased estimate of the same distance, so the first search stage reads a prefix of each stored template
 * and compares it with the probe's prefix under a small set of alignments.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import {
  encodeCode,
  encodeCodes,
  NO_ALIGNMENT,
  type Alignment,
  type FeatureKind,
  type PalmCode,
  type PalmFeatures,
} from './features';

export interface ProtectionParameters {
  /** Index-of-Max outputs of the full template. */
  hashes: number;
  /** Leading outputs that form the coarse template (first search stage); a multiple of 32. */
  coarseHashes: number;
  /** Projections compared per output (q): 2, 4 or 16, stored in 1, 2 or 4 bits. */
  candidates: 2 | 4 | 16;
  /** Code bits summed by each projection. */
  taps: number;
  /**
   * The coarse prefix's symbols hash a code of the responses smoothed across cells by this standard
   * deviation (cells), so that stage 1 tolerates larger misalignments; the rest hash the sharp code. 0 or
   * absent: every symbol hashes the sharp code (templates of version 1).
   */
  coarseSmooth_cells?: number;
  /**
   * The coarse prefix's head (its first half: what the cascade's first passes compare, search.ts
   * `cascadeHeadWords`) hashes a code smoothed by this standard deviation (cells) instead, wider than
   * `coarseSmooth_cells`, so that the passes over the most entries tolerate the most misalignment. 0 or
   * absent: the head as the rest of the prefix (templates of version 1 or 2).
   */
  coarseHeadSmooth_cells?: number;
}

/**
 * Templates of version 2 (issue 26): the coarse prefix is hashed from responses smoothed by 0.8 cells, which
 * on model A through the camera model (bench/palm-tune.ts, medium) cut stage 1's genuine miss at the
 * shortlist of N = 10^6 from about 20 % to 11 % with the same 15 coarse alignments (0.6 cells: 12.5 %,
 * 1.3: 12.3 %).
 */
export const DEFAULT_PROTECTION: Readonly<ProtectionParameters> = {
  hashes: 1024,
  coarseHashes: 512,
  candidates: 4,
  taps: 4,
  coarseSmooth_cells: 0.8,
};

/**
 * Templates of version 3, not made by default: version 2's, except the coarse prefix's head (its first 256
 * symbols) hashed from responses smoothed by 2.4 cells. On model A through the camera model (medium, 400
 * fused payment scans, seeds 7 and 11) stage 1 at N = 10^6 lost fewer mates with it (bench/palm-stage1.ts,
 * the plan's 15 coarse alignments: 5.25 % / 5.5 % against 8.25 % / 7.5 %), but stage 2 compares those symbols
 * too and lost more (bench/palm-tune.ts, fused FNMR at the impostor fit's 1e-9: 11.5 % / 9.75 % against
 * 9.0 % / 5.0 %; its impostor tail widens): a net loss while stage 2 reads the whole template. For
 * experiments (bench/palm-tune.ts --protection '{"coarseHeadSmooth_cells":2.4}').
 */
export const HEAD_SMOOTHED_PROTECTION: Readonly<ProtectionParameters> = {
  ...DEFAULT_PROTECTION,
  coarseHeadSmooth_cells: 2.4,
};

/**
 * Templates of version 1 (before issue 26): every symbol from the sharp code. Still read, parsed and matched
 * (a server keeps a protector of these parameters beside the current one, like a previous key), never made
 * for new palms.
 */
export const VERSION_1_PROTECTION: Readonly<ProtectionParameters> = {
  hashes: 1024,
  coarseHashes: 512,
  candidates: 4,
  taps: 4,
};

/**
 * The template version parameters give: 3 when the coarse prefix and, apart, its head are smoothed, 2 when
 * only the prefix is, else 1. A template and a probe of different versions hash different codes: they are
 * never compared (their key ids differ, and the shapes checked by the search and by parseTemplate carry the
 * version).
 */
export function templateVersionOf(parameters: Readonly<ProtectionParameters>): TemplateVersion {
  if ((parameters.coarseSmooth_cells ?? 0) <= 0) {
    if ((parameters.coarseHeadSmooth_cells ?? 0) > 0) {
      throw new RangeError('a smoothed head needs a smoothed coarse prefix');
    }
    return 1;
  }
  return (parameters.coarseHeadSmooth_cells ?? 0) > 0 ? 3 : 2;
}

/**
 * Template versions this code makes (header byte 10: 0 for version 1, else the version). Version 3
 * (HEAD_SMOOTHED_PROTECTION) is for experiments: parseTemplate does not read it, no server stores it.
 */
export type TemplateVersion = 1 | 2 | 3;

/** Symbols of the coarse prefix's head: its first half (search.ts `cascadeHeadWords`). */
export function coarseHeadHashes(parameters: Readonly<ProtectionParameters>): number {
  return parameters.coarseHashes / 2;
}

/** Largest probe shift, in cells, that the tap layout's zero padding leaves room for. */
export const MAX_SHIFT_CELLS = 4;

export interface AlignmentPlan {
  /** Rotations of the probe for the full template; each is combined with every integer shift below. */
  rotations_deg: readonly number[];
  /** Integer shifts of the probe in −maxShift..maxShift cells on each axis. */
  maxShift_cells: number;
  /** Rotations of the probe for the coarse template, each combined with each of `coarseShifts`. */
  coarseRotations_deg: readonly number[];
  coarseShifts: readonly (readonly [dx_cells: number, dy_cells: number])[];
  /** Scales of the probe for the full template (each with every rotation); absent: 1 only. */
  scales?: readonly number[];
  /** Scales of the probe for the coarse template (each with every coarse rotation); absent: 1 only. */
  coarseScales?: readonly number[];
  /**
   * More poses of the probe for the coarse template, each with its own shifts, after the alignments above:
   * compared in the cascade's last pass only (the whole coarse prefix of the entries its first passes keep,
   * search.ts `cascadeBlock`), and in the coarse distance. The first passes, over every entry, use the
   * alignments above only.
   */
  coarseExtra?: readonly CoarsePose[];
}

/** A pose of the probe for the coarse template and its shifts. */
export interface CoarsePose {
  rotation_deg: number;
  /** Absent: 1. */
  scale?: number;
  shifts: readonly (readonly [dx_cells: number, dy_cells: number])[];
}

/**
 * Stage 2 (the full template) searches the pose a handheld phone camera leaves after the landmark crop
 * (issue 26): each hold is off by up to ±8° / ±4 % shift / ±5 % scale at the camera model's medium level
 * (±15° / ±8 % / ±10 % at hard), so a payment's hold and the registration's differ by up to twice that. At
 * the hard level the genuine scans the engine missed were those two holds apart by more than the search
 * reached: their distance followed the holds' difference in rotation (correlation 0.58 on model A) and in
 * shift (0.42), not their blur, light or noise (all under 0.12). So rotations of 5° steps over ±25° (a
 * difference of two ±15° holds passes 27.5° in under 1 % of pairs), scales 0.91 / 1 / 1.09 (at most 4.5 % off)
 * and whole-cell shifts up to ±4 cells (±12.5 % of the ROI, all the tap layout's padding allows): 11 × 3 × 81 =
 * 2,673 alignments. Measured on model A (bench/palm-tune.ts, 100 identities, seed 31), hard, fused: EER 8.4 %
 * → 0.47 % (±30° gave the same; ±30° with ±3 cells 3.5 %); medium: the genuine distances unchanged, impostor
 * mean 0.646 → 0.641 with a narrower spread. The probe hashes 2.6× as many alignments as over ±15° / ±3 cells;
 * coarse to fine (below) hashes a subset first.
 *
 * Stage 1 (the coarse prefix over the whole gallery) keeps 15 alignments for the cascade's first passes over
 * every entry, its cost at N = 10^6: 3 rotations (−8°, 0, 8°; was ±6°) × 5 shifts (none and the four
 * diagonals); its prefix is hashed from smoothed responses (DEFAULT_PROTECTION.coarseSmooth_cells) so that it
 * tolerates what lies between them. The whole prefixes of the 1/32 of entries those passes keep are compared
 * under 22 more (coarseExtra): shifts of 2 cells along each axis at the 3 rotations, and ±16° with the same 5
 * shifts. Measured on model A through the camera model (bench/palm-stage1.ts, medium, 400 fused payment
 * scans, seeds 7 and 11): stage 1 at the shortlist of 1,024 at N = 10^6 loses 5.25 % / 4.0 % of mates
 * against 8.25 % / 7.5 % without them; the shortlist alone (the whole prefixes' normal-fit estimate) 1.75 % /
 * 1.75 % against 7.0 % / 6.25 %, so most of what is left is lost in the first passes (4.25 % / 3.25 %). With
 * the head smoothed apart (HEAD_SMOOTHED_PROTECTION; seed 7): the two-cell shifts alone 4.0 %, ±16° alone
 * 3.5 %, ±12° instead of ±16° as good. They add about 12 % to a search's CPU time at 10^6
 * (bench/palm-search-speed.ts).
 */
export const DEFAULT_ALIGNMENT_PLAN: Readonly<AlignmentPlan> = {
  rotations_deg: [-25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25],
  scales: [0.91, 1, 1.09],
  maxShift_cells: MAX_SHIFT_CELLS,
  coarseRotations_deg: [-8, 0, 8],
  coarseShifts: [
    [0, 0],
    [-1, -1],
    [-1, 1],
    [1, -1],
    [1, 1],
  ],
  coarseExtra: [
    ...[-8, 0, 8].map((rotation_deg) => ({
      rotation_deg,
      shifts: [
        [-2, 0],
        [2, 0],
        [0, -2],
        [0, 2],
      ] as const,
    })),
    ...[-16, 16].map((rotation_deg) => ({
      rotation_deg,
      shifts: [
        [0, 0],
        [-1, -1],
        [-1, 1],
        [1, -1],
        [1, 1],
      ] as const,
    })),
  ],
};

/**
 * Stage 2 coarse to fine (issue 26): the probe is first hashed under a subset of the plan's grid, every
 * `rotationStep`-th rotation and `scaleStep`-th scale from the middle one, and shifts in steps of `shiftStep`
 * cells from none (every alignment of the full plan is then at most one step from one of them on each axis);
 * the search scores its shortlist with that, and the closest candidates are then refined over the full grid
 * (search.ts `refineResult`), hashing only the alignments the refinement visits.
 */
export interface CoarseToFine {
  rotationStep: number;
  scaleStep: number;
  shiftStep: number;
}

/**
 * Every 2nd rotation, every scale, shifts −3 / 0 / 3 cells of ±4: 5 × 3 × 9 = 135 of the plan's 2,673. Shift
 * steps of 3 rather than 2 (25 shifts) gave the same genuine and impostor distances on model A at the medium
 * and hard levels (bench/palm-tune.ts, 100 identities, seed 31) and a scan 20 % faster.
 */
export const DEFAULT_COARSE_TO_FINE: Readonly<CoarseToFine> = { rotationStep: 2, scaleStep: 1, shiftStep: 3 };

/** Indices of `length` grid values, every `step`-th counted from the middle one (both ends reached within step). */
function subsetIndices(length: number, step: number): number[] {
  const middle = (length - 1) >> 1;
  const out: number[] = [];
  for (let i = middle % step; i < length; i += step) out.push(i);
  return out;
}

/**
 * One alignment of a plan's full grid, by index: rotation `r` of `rotations_deg`, scale `s` of `scales`, and
 * shifts `dx`, `dy` in −maxShift_cells..maxShift_cells.
 */
export interface GridAlignment {
  r: number;
  s: number;
  dx: number;
  dy: number;
}

function checkPlan(plan: Readonly<AlignmentPlan>): void {
  const { maxShift_cells } = plan;
  if (!(maxShift_cells >= 0 && maxShift_cells <= MAX_SHIFT_CELLS)) throw new RangeError('shift out of range');
  const shifts = [...plan.coarseShifts, ...(plan.coarseExtra ?? []).flatMap((pose) => pose.shifts)];
  if (shifts.some(([dx, dy]) => Math.max(Math.abs(dx), Math.abs(dy)) > MAX_SHIFT_CELLS)) {
    throw new RangeError('shift out of range');
  }
  if (plan.rotations_deg.length === 0 || plan.coarseRotations_deg.length * plan.coarseShifts.length === 0) {
    throw new RangeError('empty alignment plan');
  }
}

/** The coarse subset of the plan's full grid that coarse-to-fine hashes first (in the probe's order). */
export function coarseGridOf(
  plan: Readonly<AlignmentPlan>,
  steps: Readonly<CoarseToFine> = DEFAULT_COARSE_TO_FINE,
): GridAlignment[] {
  const scales = plan.scales?.length ?? 1;
  const span = 2 * plan.maxShift_cells + 1;
  const shifts = subsetIndices(span, steps.shiftStep).map((i) => i - plan.maxShift_cells);
  const out: GridAlignment[] = [];
  for (const s of subsetIndices(scales, steps.scaleStep)) {
    for (const r of subsetIndices(plan.rotations_deg.length, steps.rotationStep)) {
      for (const dy of shifts) for (const dx of shifts) out.push({ r, s, dx, dy });
    }
  }
  return out;
}

/**
 * A full probe's (every alignment of `plan`'s grid) alignments of the coarse grid only (coarseGridOf), in that
 * order: the probe coarse-to-fine searches with, taken from a probe made whole.
 */
export function coarseGridProbeOf(
  probe: ProbeTemplates,
  plan: Readonly<AlignmentPlan> = DEFAULT_ALIGNMENT_PLAN,
): ProbeTemplates {
  if (probe.fineAlignments !== fineAlignmentsOf(plan)) throw new RangeError('not a probe of the whole plan');
  const words = probe.fine.length / probe.fineAlignments;
  const rotations = plan.rotations_deg.length;
  const span = 2 * plan.maxShift_cells + 1;
  const grid = coarseGridOf(plan);
  const fine = new Uint32Array(grid.length * words);
  grid.forEach(({ r, s, dx, dy }, k) => {
    const a = ((s * rotations + r) * span + dy + plan.maxShift_cells) * span + dx + plan.maxShift_cells;
    fine.set(probe.fine.subarray(a * words, (a + 1) * words), k * words);
  });
  return { ...probe, fine, fineAlignments: grid.length };
}

/**
 * A probe's full templates made on demand, one alignment of the plan's grid at a time, each hashed once
 * (TemplateProtector.prober). `probe` packs a list of them with the plan's coarse alignments as a
 * ProbeTemplates for a search.
 */
export interface ProbeHasher {
  readonly plan: Readonly<AlignmentPlan>;
  readonly words: number;
  /** The full template of one alignment (cached; do not modify). */
  at(alignment: Readonly<GridAlignment>): Uint32Array;
  /** Alignments hashed so far. */
  readonly hashed: number;
  /**
   * The full template under any pose between the grid's (stage 2's polish, search.ts polishDistance): a
   * rotation and scale of their own, and shifts in cells that need not be whole (the responses are
   * interpolated for the fraction, the whole part is a shift of the code as on the grid). A pose of the grid
   * gives exactly `at` of its alignment. Shifts are limited to ±MAX_SHIFT_CELLS (cached; do not modify).
   */
  atPose(pose: Readonly<Alignment>): Uint32Array;
  /** Poses off the grid hashed so far. */
  readonly polished: number;
  /** A probe whose full templates are `alignments` (in order) and whose coarse ones are the plan's. */
  probe(alignments: readonly Readonly<GridAlignment>[]): ProbeTemplates;
}

/** How many full alignments a probe made under `plan` has (poses × shifts). */
export function fineAlignmentsOf(plan: Readonly<AlignmentPlan>): number {
  const span = 2 * plan.maxShift_cells + 1;
  return plan.rotations_deg.length * (plan.scales?.length ?? 1) * span * span;
}

/** How many coarse alignments a probe made under `plan` has (the first passes' and the extra ones). */
export function coarseAlignmentsOf(plan: Readonly<AlignmentPlan>): number {
  return (
    firstPassAlignmentsOf(plan) + (plan.coarseExtra ?? []).reduce((sum, pose) => sum + pose.shifts.length, 0)
  );
}

/** How many of a probe's coarse alignments the cascade's first passes use: the first, all but the extra. */
export function firstPassAlignmentsOf(plan: Readonly<AlignmentPlan>): number {
  return plan.coarseRotations_deg.length * (plan.coarseScales?.length ?? 1) * plan.coarseShifts.length;
}

export interface ProtectedTemplate {
  readonly kind: FeatureKind;
  /**
   * 1: every symbol from the sharp code; 2: the coarse prefix from smoothed responses (header byte 10).
   * Absent is taken as unknown (hand-made templates of tests): the key id still keeps versions apart.
   */
  readonly version?: number;
  readonly symbolBits: number;
  readonly hashes: number;
  readonly coarseHashes: number;
  /** Identifies the key the template was made with (a keyed digest, not the key). */
  readonly keyId: Uint8Array;
  /** The symbols, packed; the first `coarseHashes` of them are the coarse template. */
  readonly words: Uint32Array;
}

/**
 * A probe hashed under every alignment of its plan: full templates back to back in `fine`, and coarse
 * prefixes back to back in `coarse`.
 */
export interface ProbeTemplates {
  /** The template version the probe was hashed for (see ProtectedTemplate). */
  readonly version?: number;
  readonly symbolBits: number;
  readonly keyId: Uint8Array;
  readonly hashes: number;
  readonly coarseHashes: number;
  readonly fine: Uint32Array;
  readonly fineAlignments: number;
  readonly coarse: Uint32Array;
  readonly coarseAlignments: number;
  /**
   * The first so many of the coarse alignments are those of the cascade's first passes (the leads and the
   * heads); the others only count in the whole coarse distance. Absent: all of them.
   */
  readonly firstPassAlignments?: number;
}

export function symbolBitsFor(candidates: number): number {
  if (candidates === 2) return 1;
  if (candidates === 4) return 2;
  if (candidates === 16) return 4;
  throw new RangeError('candidates must be 2, 4 or 16');
}

export function wordsFor(hashes: number, symbolBits: number): number {
  return Math.ceil((hashes * symbolBits) / 32);
}

/** Labels are ASCII; no TextEncoder, which this package's ES-only type environment does not declare. */
function ascii(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new RangeError('label must be ASCII');
    bytes[i] = code;
  }
  return bytes;
}

/** An HMAC-SHA-256 counter-mode stream of 32-bit words: the key's expansion into projection parameters. */
class KeyStream {
  private block: Uint8Array = new Uint8Array(0);
  private position = 0;
  private counter = 0;
  /** HMAC-SHA-256 under the key, already fed the label: each block clones it and adds the counter. */
  private readonly keyed: ReturnType<typeof hmac.create>;

  constructor(key: Uint8Array, label: string) {
    this.keyed = hmac.create(sha256, key).update(ascii(label));
  }

  nextU32(): number {
    if (this.position + 4 > this.block.length) {
      const counter = new Uint8Array(4);
      new DataView(counter.buffer).setUint32(0, this.counter++);
      this.block = this.keyed.clone().update(counter).digest();
      this.position = 0;
    }
    const b = this.block;
    const p = this.position;
    this.position += 4;
    return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
  }

  /** Uniform in (0, 1). */
  nextUniform(): number {
    return (this.nextU32() + 0.5) / 4294967296;
  }

  nextNormal(): number {
    return Math.sqrt(-2 * Math.log(this.nextUniform())) * Math.cos(2 * Math.PI * this.nextUniform());
  }
}

/** One pose's codes as signed planes: the sharp code, and the smoothed one (the same object when unused). */
interface PoseCode {
  code: PalmCode;
  values: Int8Array;
}
interface PoseCodes {
  sharp: PoseCode;
  smooth: PoseCode;
  /** The code of the coarse prefix's head, if smoothed apart (else `smooth`). */
  head: PoseCode;
}

interface Projections {
  /** Index of each tap's code value in the padded signed layout: hash-major, then candidate, then tap. */
  readonly index: Int32Array;
  readonly weight: Float32Array;
  readonly whitening: Uint32Array;
}

function makeProjections(
  stream: KeyStream,
  parameters: Readonly<ProtectionParameters>,
  planes: number,
  grid: number,
  symbolBits: number,
): Projections {
  const count = parameters.hashes * parameters.candidates * parameters.taps;
  const index = new Int32Array(count);
  const weight = new Float32Array(count);
  const side = grid + 2 * MAX_SHIFT_CELLS;
  for (let t = 0; t < count; t++) {
    // The modulo's bias is below 2^-20 for these sizes, far under what the code's own noise hides.
    const slot = stream.nextU32() % (planes * grid * grid);
    const plane = Math.floor(slot / (grid * grid));
    const cell = slot % (grid * grid);
    index[t] =
      plane * side * side +
      (Math.floor(cell / grid) + MAX_SHIFT_CELLS) * side +
      (cell % grid) +
      MAX_SHIFT_CELLS;
    weight[t] = stream.nextNormal();
  }
  const whitening = new Uint32Array(wordsFor(parameters.hashes, symbolBits));
  for (let i = 0; i < whitening.length; i++) whitening[i] = stream.nextU32();
  return { index, weight, whitening };
}

/** The code as ±1 per bit (0 where masked) in a zero-padded layout, so shifted reads need no bounds checks. */
export function signedPlanes(code: PalmCode, pad: number): Int8Array {
  const { grid, planes } = code;
  const side = grid + 2 * pad;
  const values = new Int8Array(planes * side * side);
  for (let p = 0; p < planes; p++) {
    for (let y = 0; y < grid; y++) {
      const mask = code.mask[y]!;
      const bits = code.bits[p * grid + y]!;
      const row = p * side * side + (y + pad) * side + pad;
      for (let x = 0; x < grid; x++) {
        if ((mask >>> x) & 1) values[row + x] = (bits >>> x) & 1 ? 1 : -1;
      }
    }
  }
  return values;
}

/**
 * Index-of-Max hashing of one signed code under several shifts (offsets into its padded layout): the first
 * `hashes` outputs for shift s go to `out` from word `firstWord + s·stride`, whitened. `hashes` is a multiple
 * of the symbols per word, so a prefix ends on a word boundary. The shifts are the inner loop, so each
 * projection's taps are read once for all of them.
 */
function hashShifts(
  values: Int8Array,
  offsets: readonly number[],
  projections: Projections,
  fromHash: number,
  hashes: number,
  candidates: number,
  taps: number,
  symbolBits: number,
  out: Uint32Array,
  firstWord: number,
  stride: number,
): void {
  const { index, weight, whitening } = projections;
  const perWord = 32 / symbolBits;
  const shifts = offsets.length;
  if (candidates === 4 && taps === 4) {
    // The default parameters, written out: 16 taps per output held in locals across the shifts.
    for (let h = fromHash, t = 16 * fromHash; h < hashes; h++, t += 16) {
      const i0 = index[t]!,
        i1 = index[t + 1]!,
        i2 = index[t + 2]!,
        i3 = index[t + 3]!;
      const i4 = index[t + 4]!,
        i5 = index[t + 5]!,
        i6 = index[t + 6]!,
        i7 = index[t + 7]!;
      const i8 = index[t + 8]!,
        i9 = index[t + 9]!,
        i10 = index[t + 10]!,
        i11 = index[t + 11]!;
      const i12 = index[t + 12]!,
        i13 = index[t + 13]!,
        i14 = index[t + 14]!,
        i15 = index[t + 15]!;
      const w0 = weight[t]!,
        w1 = weight[t + 1]!,
        w2 = weight[t + 2]!,
        w3 = weight[t + 3]!;
      const w4 = weight[t + 4]!,
        w5 = weight[t + 5]!,
        w6 = weight[t + 6]!,
        w7 = weight[t + 7]!;
      const w8 = weight[t + 8]!,
        w9 = weight[t + 9]!,
        w10 = weight[t + 10]!,
        w11 = weight[t + 11]!;
      const w12 = weight[t + 12]!,
        w13 = weight[t + 13]!,
        w14 = weight[t + 14]!,
        w15 = weight[t + 15]!;
      const word = h >> 4;
      const shift = (h & 15) << 1;
      for (let s = 0; s < shifts; s++) {
        const o = offsets[s]!;
        const s0 = w0 * values[i0 + o]! + w1 * values[i1 + o]! + w2 * values[i2 + o]! + w3 * values[i3 + o]!;
        const s1 = w4 * values[i4 + o]! + w5 * values[i5 + o]! + w6 * values[i6 + o]! + w7 * values[i7 + o]!;
        const s2 =
          w8 * values[i8 + o]! + w9 * values[i9 + o]! + w10 * values[i10 + o]! + w11 * values[i11 + o]!;
        const s3 =
          w12 * values[i12 + o]! + w13 * values[i13 + o]! + w14 * values[i14 + o]! + w15 * values[i15 + o]!;
        let winner = 0;
        let best = s0;
        if (s1 > best) {
          best = s1;
          winner = 1;
        }
        if (s2 > best) {
          best = s2;
          winner = 2;
        }
        if (s3 > best) winner = 3;
        out[firstWord + s * stride + word]! |= winner << shift;
      }
    }
  } else {
    const span = candidates * taps;
    for (let h = fromHash; h < hashes; h++) {
      const base = h * span;
      const word = Math.floor(h / perWord);
      const shift = (h % perWord) * symbolBits;
      for (let s = 0; s < shifts; s++) {
        const o = offsets[s]!;
        let best = -Infinity;
        let winner = 0;
        for (let c = 0, t = base; c < candidates; c++) {
          let sum = 0;
          for (let k = 0; k < taps; k++, t++) sum += weight[t]! * values[index[t]! + o]!;
          if (sum > best) {
            best = sum;
            winner = c;
          }
        }
        out[firstWord + s * stride + word]! |= winner << shift;
      }
    }
  }
  const words = hashes / perWord;
  for (let s = 0; s < shifts; s++) {
    const at = firstWord + s * stride;
    for (let k = fromHash / perWord; k < words; k++) out[at + k]! ^= whitening[k]!;
  }
}

/**
 * Holds one key's projections. The key is secret (configuration, never stored beside the templates); the
 * same key and parameters always give the same template for the same code.
 */
export class TemplateProtector {
  readonly keyId: Uint8Array;
  /** The version of the templates and probes this protector makes (templateVersionOf its parameters). */
  readonly version: TemplateVersion;
  readonly parameters: Readonly<ProtectionParameters>;
  readonly symbolBits: number;
  readonly words: number;
  readonly coarseWords: number;
  private readonly projections = new Map<string, Projections>();

  constructor(
    private readonly key: Uint8Array,
    parameters: Readonly<ProtectionParameters> = DEFAULT_PROTECTION,
  ) {
    if (key.length < 16) throw new RangeError('the template key must be at least 16 bytes');
    const symbolBits = symbolBitsFor(parameters.candidates);
    if (parameters.hashes < 32 || parameters.hashes > 65535 || parameters.hashes % 32 !== 0) {
      throw new RangeError('hashes must be a multiple of 32 in 32..65535');
    }
    if (
      parameters.coarseHashes < 32 ||
      parameters.coarseHashes > parameters.hashes ||
      parameters.coarseHashes % 32 !== 0
    ) {
      throw new RangeError('coarse hashes must be a multiple of 32, at most the hashes');
    }
    if (parameters.taps < 1 || parameters.taps > 64) throw new RangeError('taps out of range');
    this.parameters = { ...parameters };
    this.symbolBits = symbolBits;
    this.words = wordsFor(parameters.hashes, symbolBits);
    this.coarseWords = wordsFor(parameters.coarseHashes, symbolBits);
    this.version = templateVersionOf(parameters);
    // Version 1 keeps the key id it always had; another version's templates get another id, so that a
    // gallery, a replay check or a search never puts templates and probes of two versions together.
    const label =
      this.version === 1 ? 'hasta/palm/key-id/v1' : `hasta/palm/key-id/v1/templates-v${this.version}`;
    this.keyId = hmac(sha256, key, ascii(label)).slice(0, 8);
  }

  /** The projections for codes of one shape, expanded from the key once. */
  private projectionsFor(code: PalmCode): Projections {
    const shape = `${code.kind}/${code.grid}/${code.planes}`;
    let projections = this.projections.get(shape);
    if (!projections) {
      const p = this.parameters;
      const label = `hasta/palm/iom/v1/${shape}/${p.hashes}/${p.candidates}/${p.taps}`;
      projections = makeProjections(
        new KeyStream(this.key, label),
        p,
        code.planes,
        code.grid,
        this.symbolBits,
      );
      this.projections.set(shape, projections);
    }
    return projections;
  }

  /** The codes one pose of a capture hashes: the sharp code and, if the parameters ask, the smoothed one. */
  private codesAt(features: PalmFeatures, alignment: Readonly<Alignment>): PoseCodes {
    const smooth_cells = this.parameters.coarseSmooth_cells ?? 0;
    const coded = (code: PalmCode) => ({ code, values: signedPlanes(code, MAX_SHIFT_CELLS) });
    let sharp: PoseCode;
    let smooth: PoseCode;
    if (smooth_cells <= 0) {
      sharp = coded(encodeCode(features, alignment));
      smooth = sharp;
    } else {
      const both = encodeCodes(features, alignment, smooth_cells);
      sharp = coded(both.sharp);
      smooth = coded(both.smooth);
    }
    const head_cells = this.parameters.coarseHeadSmooth_cells ?? 0;
    const head = head_cells > 0 ? coded(encodeCode(features, alignment, head_cells)) : smooth;
    return { sharp, smooth, head };
  }

  /**
   * Hashes the first `hashes` outputs of one pose under each offset; the results go to `out` from word `at`,
   * `stride` words apart. The coarse prefix comes from the smoothed code, the rest from the sharp one.
   */
  private hash(
    codes: PoseCodes,
    offsets: readonly number[],
    hashes: number,
    out: Uint32Array,
    at: number,
    stride: number,
  ): void {
    const p = this.parameters;
    const split = codes.smooth === codes.sharp ? 0 : Math.min(hashes, p.coarseHashes);
    const projections = this.projectionsFor(codes.sharp.code);
    const run = (values: Int8Array, from: number, to: number) =>
      hashShifts(
        values,
        offsets,
        projections,
        from,
        to,
        p.candidates,
        p.taps,
        this.symbolBits,
        out,
        at,
        stride,
      );
    const headSplit = codes.head === codes.smooth ? 0 : Math.min(split, coarseHeadHashes(p));
    if (headSplit > 0) run(codes.head.values, 0, headSplit);
    if (split > headSplit) run(codes.smooth.values, headSplit, split);
    if (split < hashes) run(codes.sharp.values, split, hashes);
  }

  /** The template stored at enrolment: the capture as it is, no alignment. */
  enrol(features: PalmFeatures): ProtectedTemplate {
    const codes = this.codesAt(features, NO_ALIGNMENT);
    const words = new Uint32Array(this.words);
    this.hash(codes, [0], this.parameters.hashes, words, 0, this.words);
    return {
      kind: codes.sharp.code.kind,
      version: this.version,
      symbolBits: this.symbolBits,
      hashes: this.parameters.hashes,
      coarseHashes: this.parameters.coarseHashes,
      keyId: this.keyId,
      words,
    };
  }

  /** A probe whose full templates are hashed on demand, alignment by alignment (see ProbeHasher). */
  prober(features: PalmFeatures, plan: Readonly<AlignmentPlan> = DEFAULT_ALIGNMENT_PLAN): ProbeHasher {
    checkPlan(plan);
    const side = features.grid + 2 * MAX_SHIFT_CELLS;
    const scales = plan.scales ?? [1];
    const span = 2 * plan.maxShift_cells + 1;
    const poses = new Map<string, PoseCodes>();
    const codes = (rotation_deg: number, scale: number) => {
      const key = `${rotation_deg}/${scale}`;
      let entry = poses.get(key);
      if (!entry) {
        entry = this.codesAt(features, { rotation_deg, dx_cells: 0, dy_cells: 0, scale });
        poses.set(key, entry);
      }
      return entry;
    };
    const cache = new Map<number, Uint32Array>();
    const poseCache = new Map<string, Uint32Array>();
    const fractionCodes = new Map<string, PoseCodes>();
    let coarse: Uint32Array | undefined;
    const words = this.words;
    const hasher: ProbeHasher = {
      plan,
      words,
      get hashed() {
        return cache.size;
      },
      get polished() {
        return poseCache.size;
      },
      atPose: (pose) => {
        const scale = pose.scale ?? 1;
        const ix = Math.round(pose.dx_cells);
        const iy = Math.round(pose.dy_cells);
        if (
          !(Math.abs(ix) <= MAX_SHIFT_CELLS && Math.abs(iy) <= MAX_SHIFT_CELLS) ||
          !(Math.abs(pose.rotation_deg) <= 90 && scale > 0.5 && scale < 2)
        ) {
          throw new RangeError('pose out of range');
        }
        const fx = pose.dx_cells - ix;
        const fy = pose.dy_cells - iy;
        const key = `${pose.rotation_deg}/${scale}/${pose.dx_cells}/${pose.dy_cells}`;
        let out = poseCache.get(key);
        if (!out) {
          let poseCodes: PoseCodes | undefined;
          if (fx === 0 && fy === 0) poseCodes = codes(pose.rotation_deg, scale);
          else {
            const fractionKey = `${pose.rotation_deg}/${scale}/${fx}/${fy}`;
            poseCodes = fractionCodes.get(fractionKey);
            if (!poseCodes) {
              const alignment = { rotation_deg: pose.rotation_deg, dx_cells: fx, dy_cells: fy, scale };
              poseCodes = this.codesAt(features, alignment);
              fractionCodes.set(fractionKey, poseCodes);
            }
          }
          out = new Uint32Array(words);
          this.hash(poseCodes, [iy * side + ix], this.parameters.hashes, out, 0, words);
          poseCache.set(key, out);
        }
        return out;
      },
      at: ({ r, s, dx, dy }) => {
        if (
          !(r >= 0 && r < plan.rotations_deg.length && s >= 0 && s < scales.length) ||
          Math.max(Math.abs(dx), Math.abs(dy)) > plan.maxShift_cells
        ) {
          throw new RangeError('alignment outside the plan');
        }
        const key =
          ((s * plan.rotations_deg.length + r) * span + dy + plan.maxShift_cells) * span +
          dx +
          plan.maxShift_cells;
        let out = cache.get(key);
        if (!out) {
          out = new Uint32Array(words);
          this.hash(
            codes(plan.rotations_deg[r]!, scales[s]!),
            [dy * side + dx],
            this.parameters.hashes,
            out,
            0,
            words,
          );
          cache.set(key, out);
        }
        return out;
      },
      probe: (alignments) => {
        const fine = new Uint32Array(alignments.length * words);
        alignments.forEach((alignment, k) => fine.set(hasher.at(alignment), k * words));
        coarse ??= this.coarseProbe(features, plan, codes);
        return this.probeOf(fine, alignments.length, coarse, plan);
      },
    };
    return hasher;
  }

  /** The coarse prefixes of every coarse alignment of the plan, back to back. */
  private coarseProbe(
    features: PalmFeatures,
    plan: Readonly<AlignmentPlan>,
    codes: (rotation_deg: number, scale: number) => PoseCodes,
  ): Uint32Array {
    const side = features.grid + 2 * MAX_SHIFT_CELLS;
    const coarse = new Uint32Array(coarseAlignmentsOf(plan) * this.coarseWords);
    const coarseOffsets = plan.coarseShifts.map(([dx, dy]) => dy * side + dx);
    const scales = plan.coarseScales ?? [1];
    let r = 0;
    for (const scale of scales) {
      for (const rotation_deg of plan.coarseRotations_deg) {
        const first = r++ * coarseOffsets.length * this.coarseWords;
        this.hash(
          codes(rotation_deg, scale),
          coarseOffsets,
          this.parameters.coarseHashes,
          coarse,
          first,
          this.coarseWords,
        );
      }
    }
    let at = r * coarseOffsets.length * this.coarseWords;
    for (const pose of plan.coarseExtra ?? []) {
      const offsets = pose.shifts.map(([dx, dy]) => dy * side + dx);
      this.hash(
        codes(pose.rotation_deg, pose.scale ?? 1),
        offsets,
        this.parameters.coarseHashes,
        coarse,
        at,
        this.coarseWords,
      );
      at += offsets.length * this.coarseWords;
    }
    return coarse;
  }

  private probeOf(
    fine: Uint32Array,
    fineAlignments: number,
    coarse: Uint32Array,
    plan: Readonly<AlignmentPlan>,
  ): ProbeTemplates {
    return {
      version: this.version,
      symbolBits: this.symbolBits,
      keyId: this.keyId,
      hashes: this.parameters.hashes,
      coarseHashes: this.parameters.coarseHashes,
      fine,
      fineAlignments,
      coarse,
      coarseAlignments: coarseAlignmentsOf(plan),
      firstPassAlignments: firstPassAlignmentsOf(plan),
    };
  }

  /** A probe hashed under every alignment of the plan (see the module comment). */
  probe(features: PalmFeatures, plan: Readonly<AlignmentPlan> = DEFAULT_ALIGNMENT_PLAN): ProbeTemplates {
    checkPlan(plan);
    const { maxShift_cells } = plan;
    const side = features.grid + 2 * MAX_SHIFT_CELLS;
    // The aligned, signed codes per rotation and scale, shared by the two stages.
    const signed = new Map<string, PoseCodes>();
    const at = (rotation_deg: number, scale: number) => {
      const key = `${rotation_deg}/${scale}`;
      let entry = signed.get(key);
      if (!entry) {
        entry = this.codesAt(features, { rotation_deg, dx_cells: 0, dy_cells: 0, scale });
        signed.set(key, entry);
      }
      return entry;
    };
    const poses = (rotations: readonly number[], scales: readonly number[]) =>
      scales.flatMap((scale) => rotations.map((rotation_deg) => ({ rotation_deg, scale })));
    const finePoses = poses(plan.rotations_deg, plan.scales ?? [1]);
    const span = 2 * maxShift_cells + 1;
    const fineAlignments = finePoses.length * span * span;
    const fine = new Uint32Array(fineAlignments * this.words);
    const offsets: number[] = [];
    for (let dy = -maxShift_cells; dy <= maxShift_cells; dy++) {
      for (let dx = -maxShift_cells; dx <= maxShift_cells; dx++) offsets.push(dy * side + dx);
    }
    finePoses.forEach(({ rotation_deg, scale }, r) => {
      const first = r * offsets.length * this.words;
      this.hash(at(rotation_deg, scale), offsets, this.parameters.hashes, fine, first, this.words);
    });
    return this.probeOf(fine, fineAlignments, this.coarseProbe(features, plan, at), plan);
  }
}

const MAGIC = [0x48, 0x50, 0x54, 0x31]; // "HPT1"
const HEADER_BYTES = 20;
/** Header byte 4: the feature kind's index here (existing templates: 0 Competitive Code, 1 BOCV). */
const KIND_BYTES: readonly FeatureKind[] = ['competitive', 'bocv', 'rloc', 'ordinal'];

/** Bytes for storage (to be encrypted at rest by the server): a fixed header, then the words little-endian. */
export function serializeTemplate(template: ProtectedTemplate): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES + 4 * template.words.length);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  bytes[4] = KIND_BYTES.indexOf(template.kind);
  bytes[5] = template.symbolBits;
  view.setUint16(6, template.hashes, true);
  view.setUint16(8, template.coarseHashes, true);
  // byte 10: the template version, 0 for version 1 (written before the byte had a use); byte 11 reserved (0)
  bytes[10] = (template.version ?? 1) === 1 ? 0 : template.version!;
  bytes.set(template.keyId, 12);
  template.words.forEach((word, i) => view.setUint32(HEADER_BYTES + 4 * i, word, true));
  return bytes;
}

export function parseTemplate(bytes: Uint8Array): ProtectedTemplate {
  if (bytes.length < HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new RangeError('not a protected palm template');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kindByte = bytes[4];
  const symbolBits = bytes[5]!;
  const hashes = view.getUint16(6, true);
  const coarseHashes = view.getUint16(8, true);
  if (
    kindByte === undefined ||
    kindByte >= KIND_BYTES.length ||
    ![1, 2, 4].includes(symbolBits) ||
    ![0, 2].includes(bytes[10]!) ||
    bytes[11] !== 0 ||
    hashes % 32 !== 0 ||
    coarseHashes % 32 !== 0 ||
    coarseHashes > hashes ||
    coarseHashes === 0
  ) {
    throw new RangeError('unsupported palm template header');
  }
  const count = wordsFor(hashes, symbolBits);
  if (bytes.length !== HEADER_BYTES + 4 * count) throw new RangeError('palm template has the wrong length');
  const words = new Uint32Array(count);
  for (let i = 0; i < count; i++) words[i] = view.getUint32(HEADER_BYTES + 4 * i, true);
  return {
    kind: KIND_BYTES[kindByte]!,
    version: bytes[10] === 0 ? 1 : bytes[10]!,
    symbolBits,
    hashes,
    coarseHashes,
    keyId: bytes.slice(12, 20),
    words,
  };
}

/** The palm_hash shown to users: the SHA-256 of the protected template's bytes, in hex. */
export function palmHash(template: ProtectedTemplate): string {
  return bytesToHex(sha256(serializeTemplate(template)));
}
