import { PALM_GUIDE_BOX_FRACTION, PALM_ROI_BYTES, PALM_ROI_SIZE } from '@hasta/contracts/palm';
import { palmEvidence } from '@hasta/palm/palm-evidence';
import { frameQuality } from '@hasta/palm/quality';
import type { FramePose, QualityIssue } from '@hasta/palm/quality';

/**
 * The pixel work of a palm scan, free of React and of the DOM so it can be tested: where the guide box is,
 * the grey region of interest (ROI) cut from it, how good that picture is, and its wire form. Nothing here
 * keeps a picture: each function returns a new array that its caller drops once it is sent or judged.
 */

export interface GuideBox {
  /** Left and top edge in frame pixels. */
  x: number;
  y: number;
  /** Side of the square in frame pixels. */
  side: number;
}

/** The centred square of PALM_GUIDE_BOX_FRACTION of the frame's shorter side (decision 014). */
export function guideBox(width_px: number, height_px: number): GuideBox {
  if (!(width_px > 0 && height_px > 0)) throw new RangeError('frame size must be positive');
  const side = Math.max(1, Math.round(Math.min(width_px, height_px) * PALM_GUIDE_BOX_FRACTION));
  return { x: Math.floor((width_px - side) / 2), y: Math.floor((height_px - side) / 2), side };
}

/** The largest side the box is drawn at before averaging: a multiple of the ROI side, at most 4 times it. */
export function workingSide(boxSide: number): number {
  const factor = Math.min(4, Math.max(1, Math.floor(boxSide / PALM_ROI_SIZE)));
  return factor * PALM_ROI_SIZE;
}

/**
 * Grey (Rec. 601 luma) of an RGBA square `side` pixels wide, averaged down by whole blocks to the
 * PALM_ROI_SIZE² ROI. `side` must be a multiple of PALM_ROI_SIZE (see `workingSide`).
 */
export function roiFromRgba(rgba: Uint8ClampedArray, side: number): Uint8Array {
  const factor = side / PALM_ROI_SIZE;
  if (!Number.isInteger(factor) || factor < 1) throw new RangeError('side must be a multiple of the ROI');
  if (rgba.length !== side * side * 4) throw new RangeError('pixel data does not match the side');
  const sums = new Float64Array(PALM_ROI_BYTES);
  for (let y = 0; y < side; y += 1) {
    const row = Math.floor(y / factor) * PALM_ROI_SIZE;
    for (let x = 0; x < side; x += 1) {
      const i = (y * side + x) * 4;
      sums[row + Math.floor(x / factor)]! += 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
    }
  }
  const roi = new Uint8Array(PALM_ROI_BYTES);
  const area = factor * factor;
  for (let i = 0; i < roi.length; i += 1) roi[i] = Math.min(255, Math.max(0, Math.round(sums[i]! / area)));
  return roi;
}

/** Standard base64 of the bytes (what the scan's frames carry). */
export function bytesToBase64(bytes: Uint8Array): string {
  const CHUNK = 0x2000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return btoa(binary);
}

/**
 * What a look at the palm found: good ('ok'), or the first thing to fix. The light, contrast and motion
 * checks are `assessRoi`'s; blur, a tilted or small palm and a palm at the picture's edge are the quality
 * gate's (`judgeLook`, packages/palm/src/quality.ts).
 */
export type PalmQuality =
  | 'ok'
  | 'too-dark'
  | 'too-bright'
  | 'no-palm'
  | 'not-palm'
  | 'moving'
  | 'blurry'
  | 'tilted'
  | 'too-far'
  | 'out-of-frame';

/** Average grey below which the palm is too dark to show its lines. */
export const DARK_MEAN_GREY = 45;
/** Average grey above which it is washed out, or the share of clipped pixels that says the same. */
export const BRIGHT_MEAN_GREY = 230;
export const CLIPPED_SHARE = 0.35;
const CLIPPED_GREY = 250;
/**
 * Grey standard deviation below which the box holds a flat surface rather than a palm. Palms measure about
 * 15 to 40 (creases, skin texture and the light across the hand); a plain wall or table about 2 to 6.
 */
export const FLAT_STD_GREY = 8;
/**
 * Motion: the line pattern of two looks 150 ms apart, compared at 32 × 32 after removing the light's slow
 * changes, must still correlate this well. A still palm with sensor noise scores about 0.97; a hand that
 * moved by 6 % of the box about 0.1 to 0.6. A moving hand is what blurs a picture, so this is the blur check.
 */
export const STILL_CORRELATION = 0.5;

const DETAIL_SIDE = 32;

/** The look's line pattern: 32 × 32 block means minus their 5 × 5 neighbourhood mean. */
export function detailPattern(roi: Uint8Array): Float32Array {
  const factor = PALM_ROI_SIZE / DETAIL_SIDE;
  const small = new Float32Array(DETAIL_SIDE * DETAIL_SIDE);
  for (let y = 0; y < PALM_ROI_SIZE; y += 1) {
    const row = Math.floor(y / factor) * DETAIL_SIDE;
    for (let x = 0; x < PALM_ROI_SIZE; x += 1)
      small[row + Math.floor(x / factor)]! += roi[y * PALM_ROI_SIZE + x]!;
  }
  for (let i = 0; i < small.length; i += 1) small[i]! /= factor * factor;
  const detail = new Float32Array(small.length);
  for (let y = 0; y < DETAIL_SIDE; y += 1) {
    for (let x = 0; x < DETAIL_SIDE; x += 1) {
      let sum = 0;
      let count = 0;
      for (let dy = -2; dy <= 2; dy += 1) {
        const yy = y + dy;
        if (yy < 0 || yy >= DETAIL_SIDE) continue;
        for (let dx = -2; dx <= 2; dx += 1) {
          const xx = x + dx;
          if (xx < 0 || xx >= DETAIL_SIDE) continue;
          sum += small[yy * DETAIL_SIDE + xx]!;
          count += 1;
        }
      }
      detail[y * DETAIL_SIDE + x] = small[y * DETAIL_SIDE + x]! - sum / count;
    }
  }
  return detail;
}

/** Pearson correlation of two equally long patterns (0 when either is flat). */
export function correlation(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) throw new RangeError('patterns differ in length');
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < a.length; i += 1) {
    meanA += a[i]!;
    meanB += b[i]!;
  }
  meanA /= a.length;
  meanB /= b.length;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const da = a[i]! - meanA;
    const db = b[i]! - meanB;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa === 0 || bb === 0 ? 0 : ab / Math.sqrt(aa * bb);
}

export interface FrameAssessment {
  quality: PalmQuality;
  /** The look's line pattern, for the next look's motion check. */
  detail: Float32Array;
}

/**
 * How good one look at the guide box is, in the order a person can fix it: light, then a palm in the box,
 * then keeping it still (compared with the previous look; the first look has none and counts as moving).
 */
export function assessRoi(roi: Uint8Array, previousDetail: Float32Array | null): FrameAssessment {
  if (roi.length !== PALM_ROI_BYTES) throw new RangeError('not a palm ROI');
  let sum = 0;
  let squares = 0;
  let clipped = 0;
  for (const grey of roi) {
    sum += grey;
    squares += grey * grey;
    if (grey >= CLIPPED_GREY) clipped += 1;
  }
  const mean = sum / roi.length;
  const std = Math.sqrt(Math.max(0, squares / roi.length - mean * mean));
  const detail = detailPattern(roi);
  let quality: PalmQuality;
  if (mean < DARK_MEAN_GREY) quality = 'too-dark';
  else if (mean > BRIGHT_MEAN_GREY || clipped / roi.length > CLIPPED_SHARE) quality = 'too-bright';
  else if (std < FLAT_STD_GREY) quality = 'no-palm';
  else if (previousDetail === null || correlation(detail, previousDetail) < STILL_CORRELATION)
    quality = 'moving';
  else quality = 'ok';
  return { quality, detail };
}

/** The scanner's wording of each issue of the quality gate. */
const GATE_FEEDBACK: Readonly<Record<QualityIssue, PalmQuality>> = {
  dark: 'too-dark',
  bright: 'too-bright',
  flat: 'no-palm',
  blurry: 'blurry',
  tilted: 'tilted',
  small: 'too-far',
  edge: 'out-of-frame',
};

export interface LookVerdict extends FrameAssessment {
  /** The quality gate's score of the look, 0..1 (0 when the light checks already refused it). */
  score: number;
}

/**
 * Whether a look is taken, and if not what to fix first: the light and a palm in the picture (`assessRoi`),
 * then whether what is there is a palm at all (`palmEvidence`: a screen, a pattern or noise is not; the
 * server checks it again), then the quality gate's exposure, contrast and pose (how the hand is held: `pose`, from its landmarks),
 * then its sharpness, then holding it still (`assessRoi`'s motion check). A blurred look is called blurred
 * whether or not it also moved: that hint says to hold still as well, and it does not depend on how far apart
 * in time two looks were (on a busy phone they are further apart). Only a look that passes both
 * `assessRoi` and `frameQuality` may become a frame of a scan, so the server, which checks the picture
 * again with `frameQuality`, accepts every frame the scanner sends.
 */
export function judgeLook(
  roi: Uint8Array,
  previousDetail: Float32Array | null,
  pose?: FramePose,
): LookVerdict {
  const assessment = assessRoi(roi, previousDetail);
  if (assessment.quality !== 'ok' && assessment.quality !== 'moving') return { ...assessment, score: 0 };
  if (!palmEvidence(roi, PALM_ROI_SIZE).palm)
    return { quality: 'not-palm', detail: assessment.detail, score: 0 };
  const gate = frameQuality(roi, PALM_ROI_SIZE, pose);
  const first = gate.issues.find((issue) => issue !== 'blurry');
  let quality: PalmQuality = assessment.quality;
  if (first !== undefined) quality = GATE_FEEDBACK[first];
  else if (gate.issues.includes('blurry')) quality = 'blurry';
  return { quality, detail: assessment.detail, score: gate.score };
}

/** The reason seen most often among `counts` (ties: the first counted), or null when there is none. */
export function mostFrequent<T>(counts: ReadonlyMap<T, number>): T | null {
  let best: T | null = null;
  let bestCount = 0;
  for (const [reason, count] of counts) {
    if (count > bestCount) {
      best = reason;
      bestCount = count;
    }
  }
  return best;
}

/**
 * A scan's time limit and what kept its looks out: the clock starts at the first look that shows something
 * (a refused look whose reason is not `idle`, or a taken one), so a scanner waiting for someone never runs
 * out; once `limit_ms` has passed since, the scan is over and `reason` is what failed most often.
 */
export class ScanDeadline<Reason> {
  #startedAt: number | null = null;
  readonly #failures = new Map<Reason, number>();

  constructor(
    readonly limit_ms: number,
    private readonly idle: (reason: Reason) => boolean,
  ) {
    if (!(limit_ms > 0)) throw new RangeError('limit_ms must be positive');
  }

  /** A look was taken as a frame. */
  taken(now: number): void {
    this.#startedAt ??= now;
  }

  /** A look was not taken, for `reason`. */
  refused(reason: Reason, now: number): void {
    if (!this.idle(reason)) this.#startedAt ??= now;
    this.#failures.set(reason, (this.#failures.get(reason) ?? 0) + 1);
  }

  expired(now: number): boolean {
    return this.#startedAt !== null && now - this.#startedAt >= this.limit_ms;
  }

  /** The reason seen most often (null when every look was taken). */
  get reason(): Reason | null {
    return mostFrequent(this.#failures);
  }
}

/**
 * Share of an RGBA picture's pixels whose colour no skin has: clearly coloured (chroma above
 * SKIN_GREY_CHROMA) and not in skin's reddish hues (Cr below SKIN_MIN_CR or Cb above SKIN_MAX_CB, BT.601).
 * Grey and weakly coloured pixels count as possible skin: a monochrome camera, or a white balance gone
 * wrong, is not evidence against a palm. Chromium's fake camera (saturated green) is almost all not skin.
 */
export function notSkinShare(rgba: Uint8ClampedArray): number {
  if (rgba.length === 0 || rgba.length % 4 !== 0) throw new RangeError('not RGBA pixel data');
  let notSkin = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    const r = rgba[i]!;
    const g = rgba[i + 1]!;
    const b = rgba[i + 2]!;
    const cb = -0.1687 * r - 0.3313 * g + 0.5 * b;
    const cr = 0.5 * r - 0.4187 * g - 0.0813 * b;
    if (Math.hypot(cb, cr) > SKIN_GREY_CHROMA && (cr < SKIN_MIN_CR || cb > SKIN_MAX_CB)) notSkin += 1;
  }
  return notSkin / (rgba.length / 4);
}

/** Chroma (distance from grey, of 128) up to which a pixel's colour says nothing. */
export const SKIN_GREY_CHROMA = 15;
/** Skin is reddish: Cr (red minus luma, centred) at least about 0 under any common light. */
export const SKIN_MIN_CR = -3;
/** Skin is not blue: Cb (blue minus luma, centred) at most this. */
export const SKIN_MAX_CB = 12;
/** The guide box shows no palm when more than this share of it has a colour no skin has. */
export const MAX_NOT_SKIN_SHARE = 0.5;
