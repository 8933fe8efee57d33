/**
 * The capture quality gate (issue 26): how usable one grey palm frame is, and what the person should fix when
 * it is not. Only frames that pass make a template or a probe.
 *
 * Image-only measures work on the 128 × 128 grey ROI alone (what the server receives, so it can check them
 * again):
 * - exposure: the mean grey and the shares of clipped dark (≤ 5) and bright (≥ 250) pixels;
 * - contrast: the grey standard deviation (a flat surface, or a hazy washed-out picture, has little);
 * - sharpness: the energy of the fine band (difference of Gaussians σ 1 – 2 px) over that of a coarse band
 *   (σ 4 – 8 px), each less what the frame's own sensor noise puts there (the noise's level estimated from
 *   the frame, Immerkær 1996). A ratio of two bands of one picture does not change with gain or light, and
 *   with the noise taken out a noisy blurred frame does not pass for a sharp one; palm creases keep the
 *   fine band, blur (defocus, motion) empties it first.
 *
 * Pose measures need the hand's landmarks (`framePose`, from MediaPipe in the browser): the palm square's
 * side in the camera frame, the palm's width over its length (a palm tilted away from the camera is
 * foreshortened: narrower for its length), and how close the square comes to the frame's edge.
 *
 * Each measure scores 0..1, 0.5 exactly at its threshold; the frame's score is the lowest of them, so a frame
 * passes when its score is at least 0.5, and `issues` lists what failed, the one to fix first first.
 */
import { palmRoi, LANDMARK, type Landmark, type RoiHand } from './roi';

/** What is wrong with a frame; each has a hint the scanner shows (English and Hindi). */
export type QualityIssue = 'dark' | 'bright' | 'flat' | 'blurry' | 'edge' | 'small' | 'tilted';

/** The order a person fixes things in: light first, then where the hand is, then holding it still. */
export const QUALITY_ISSUE_ORDER: readonly QualityIssue[] = [
  'dark',
  'bright',
  'edge',
  'small',
  'tilted',
  'flat',
  'blurry',
];

/** The hand's pose while the frame was taken, from its landmarks (see `framePose`). */
export interface FramePose {
  /** The palm square's side over the camera frame's shorter side. */
  palmShare: number;
  /** Palm width (index to pinky knuckle) over palm length (wrist to middle knuckle). */
  widthToLength: number;
  /**
   * The palm square's nearest approach to the frame's edge, over the frame's shorter side (negative: part of
   * the square lies outside the picture, where the crop repeats the edge pixels).
   */
  edgeMargin: number;
}

export interface FrameQuality {
  /** 0..1; 0.5 at the threshold of the worst measure. */
  score: number;
  /** Whether the frame may make a template or a probe. */
  passes: boolean;
  /** Why it does not pass, most important first (empty when it passes). */
  issues: QualityIssue[];
  /** Mean grey, 0..255. */
  mean: number;
  /** Grey standard deviation. */
  contrast: number;
  /** Shares of pixels at most CLIPPED_DARK_GREY / at least CLIPPED_BRIGHT_GREY. */
  darkShare: number;
  brightShare: number;
  /** Fine-band over coarse-band energy, sensor noise removed. */
  sharpness: number;
  /** Estimated sensor noise, grey levels (standard deviation). */
  noise: number;
  /** The pose measured, when the landmarks gave one. */
  pose?: FramePose;
}

/** Mean grey below which the palm is too dark to show its lines (about 40 / 255). */
export const MIN_MEAN_GREY = 40;
/** Mean grey above which it is washed out. */
export const MAX_MEAN_GREY = 235;
export const CLIPPED_DARK_GREY = 5;
export const CLIPPED_BRIGHT_GREY = 250;
/** Share of pixels clipped at either end above which that end of the picture is lost. */
export const MAX_CLIPPED_SHARE = 0.45;
/** Grey standard deviation below which the frame is flat (no palm lines, or a hazy picture). */
export const MIN_CONTRAST_GREY = 8;
/** A low-contrast frame this bright is washed out (too much light) rather than showing no palm. */
export const WASHED_OUT_MEAN_GREY = 170;
/**
 * Fine over coarse band energy below which the frame is blurred. Synthetic 'medium' frames measure 0.17 and
 * up (median 0.34), the same frames blurred by a Gaussian of σ 3 px 0.09 at most, with sensor noise or
 * without. The ratio follows the width of the palm's lines in the ROI as much as the blur: a palm cut much
 * larger than the ROI expects (a part of it magnified) measures like a blurred one.
 */
export const MIN_SHARPNESS = 0.12;
/** The palm square's side must be at least this share of the camera frame's shorter side. */
export const MIN_PALM_SHARE = 0.2;
/** Width over length below which the palm is tilted away from the camera (flat, facing it: 0.7 – 0.9). */
export const MIN_WIDTH_TO_LENGTH = 0.6;
/** The palm square must stay inside the picture, by this share of its shorter side. */
export const MIN_EDGE_MARGIN = 0;

const FINE_BAND: readonly [number, number] = [1, 2];
const COARSE_BAND: readonly [number, number] = [4, 8];
/** Pixels along each edge left out of the band energies (the blurs clamp at the edge). */
const BAND_MARGIN_PX = 8;

/**
 * A measure's score: 0.5 at `threshold`, rising linearly to 1 at `good`, falling to 0 at `bad` (either may
 * lie on either side of the threshold: it says which way is better).
 */
function rampScore(value: number, bad: number, threshold: number, good: number): number {
  if (!Number.isFinite(value)) return 0;
  const better = good > threshold ? value >= threshold : value <= threshold;
  const t = better ? (value - threshold) / (good - threshold) : (value - threshold) / (threshold - bad);
  return Math.min(1, Math.max(0, 0.5 + 0.5 * t));
}

/** Separable Gaussian blur with edges clamped, into a new array. */
export function gaussian(image: Float32Array, side: number, sigma_px: number): Float32Array {
  const radius = Math.ceil(3 * sigma_px);
  const kernel = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i += 1) {
    kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma_px * sigma_px));
    sum += kernel[i + radius]!;
  }
  for (let i = 0; i < kernel.length; i += 1) kernel[i]! /= sum;
  const across = new Float32Array(image.length);
  for (let y = 0; y < side; y += 1) {
    const row = y * side;
    for (let x = 0; x < side; x += 1) {
      let acc = 0;
      for (let k = -radius; k <= radius; k += 1) {
        const xx = Math.min(side - 1, Math.max(0, x + k));
        acc += kernel[k + radius]! * image[row + xx]!;
      }
      across[row + x] = acc;
    }
  }
  const out = new Float32Array(image.length);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      let acc = 0;
      for (let k = -radius; k <= radius; k += 1) {
        const yy = Math.min(side - 1, Math.max(0, y + k));
        acc += kernel[k + radius]! * across[yy * side + x]!;
      }
      out[y * side + x] = acc;
    }
  }
  return out;
}

/** Variance of a − b inside the margin. */
function bandEnergy(a: Float32Array, b: Float32Array, side: number): number {
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let y = BAND_MARGIN_PX; y < side - BAND_MARGIN_PX; y += 1) {
    for (let x = BAND_MARGIN_PX; x < side - BAND_MARGIN_PX; x += 1) {
      const d = a[y * side + x]! - b[y * side + x]!;
      sum += d;
      squares += d * d;
      count += 1;
    }
  }
  const mean = sum / count;
  return Math.max(0, squares / count - mean * mean);
}

/** What white noise of variance 1 leaves in the difference of Gaussians σ a − σ b (2-D). */
function noiseInBand([a, b]: readonly [number, number]): number {
  return 1 / (4 * Math.PI * a * a) + 1 / (4 * Math.PI * b * b) - 2 / (2 * Math.PI * (a * a + b * b));
}

/**
 * The frame's sensor noise (standard deviation, grey levels), by Immerkær's estimator: the mean absolute
 * response to a Laplacian-difference mask that cancels smooth picture content.
 */
export function estimateNoise(frame: Uint8Array, side: number): number {
  let sum = 0;
  for (let y = 1; y < side - 1; y += 1) {
    for (let x = 1; x < side - 1; x += 1) {
      const i = y * side + x;
      const response =
        frame[i - side - 1]! -
        2 * frame[i - side]! +
        frame[i - side + 1]! -
        2 * frame[i - 1]! +
        4 * frame[i]! -
        2 * frame[i + 1]! +
        frame[i + side - 1]! -
        2 * frame[i + side]! +
        frame[i + side + 1]!;
      sum += Math.abs(response);
    }
  }
  return (Math.sqrt(Math.PI / 2) * sum) / (6 * (side - 2) * (side - 2));
}

/** Fine-band over coarse-band energy with the noise's share taken out of both (see the module's note). */
export function sharpnessOf(frame: Uint8Array, side: number, noise = estimateNoise(frame, side)): number {
  const image = Float32Array.from(frame);
  const [f0, f1] = FINE_BAND;
  const [c0, c1] = COARSE_BAND;
  const fineLow = gaussian(image, side, f0);
  const fineHigh = gaussian(image, side, f1);
  // σ 4 from σ 2 (σ² adds): the coarse band's blurs reuse the fine band's.
  const coarseLow = gaussian(fineHigh, side, Math.sqrt(c0 * c0 - f1 * f1));
  const coarseHigh = gaussian(coarseLow, side, Math.sqrt(c1 * c1 - c0 * c0));
  const variance = noise * noise;
  const fine = Math.max(0, bandEnergy(fineLow, fineHigh, side) - variance * noiseInBand(FINE_BAND));
  const coarse = bandEnergy(coarseLow, coarseHigh, side) - variance * noiseInBand(COARSE_BAND);
  return coarse > 1e-6 ? fine / coarse : 0;
}

/**
 * The pose measures of a hand from its 21 landmarks (normalised to the frame, as `assessHand` takes them);
 * undefined when the landmarks give no palm square.
 */
export function framePose(
  landmarks: readonly Landmark[],
  hand: RoiHand,
  width: number,
  height: number,
): FramePose | undefined {
  if (!(width > 0 && height > 0)) throw new RangeError('frame size must be positive');
  let roi;
  try {
    roi = palmRoi(landmarks, hand, width, height);
  } catch {
    return undefined;
  }
  const at = (index: number) => {
    const point = landmarks[index]!;
    return { x: point.x * width, y: point.y * height };
  };
  const shorter = Math.min(width, height);
  const index = at(LANDMARK.indexMcp);
  const pinky = at(LANDMARK.pinkyMcp);
  const wrist = at(LANDMARK.wrist);
  const middle = at(LANDMARK.middleMcp);
  const length = Math.hypot(wrist.x - middle.x, wrist.y - middle.y);
  const widthPx = Math.hypot(index.x - pinky.x, index.y - pinky.y);
  let edge = Infinity;
  for (const corner of roi.corners) {
    edge = Math.min(edge, corner.x, corner.y, width - corner.x, height - corner.y);
  }
  return {
    palmShare: roi.side / shorter,
    widthToLength: length > 0 ? widthPx / length : 0,
    edgeMargin: edge / shorter,
  };
}

/**
 * The quality of one grey frame (`side` × `side`, row-major), with the hand's pose when it is known. See the
 * module's note for the measures and QUALITY_ISSUE_ORDER for the order of the issues.
 */
export function frameQuality(frame: Uint8Array, side: number, pose?: FramePose): FrameQuality {
  if (!Number.isInteger(side) || side < 32 || frame.length !== side * side)
    throw new RangeError('frame does not match its side');
  let sum = 0;
  let squares = 0;
  let dark = 0;
  let bright = 0;
  for (const grey of frame) {
    sum += grey;
    squares += grey * grey;
    if (grey <= CLIPPED_DARK_GREY) dark += 1;
    if (grey >= CLIPPED_BRIGHT_GREY) bright += 1;
  }
  const mean = sum / frame.length;
  const contrast = Math.sqrt(Math.max(0, squares / frame.length - mean * mean));
  const darkShare = dark / frame.length;
  const brightShare = bright / frame.length;
  const noise = estimateNoise(frame, side);
  const sharpness = sharpnessOf(frame, side, noise);

  const scores = new Map<QualityIssue, number>();
  const washedOut = mean > WASHED_OUT_MEAN_GREY;
  scores.set(
    'dark',
    Math.min(rampScore(mean, 0, MIN_MEAN_GREY, 80), rampScore(darkShare, 1, MAX_CLIPPED_SHARE, 0)),
  );
  const brightScore = Math.min(
    rampScore(mean, 255, MAX_MEAN_GREY, 180),
    rampScore(brightShare, 1, MAX_CLIPPED_SHARE, 0),
  );
  const contrastScore = rampScore(contrast, 0, MIN_CONTRAST_GREY, 16);
  // A washed-out picture is flat because of too much light: its fix is less light.
  scores.set('bright', washedOut ? Math.min(brightScore, contrastScore) : brightScore);
  scores.set('flat', washedOut ? 1 : contrastScore);
  scores.set('blurry', rampScore(sharpness, 0, MIN_SHARPNESS, 0.3));
  if (pose !== undefined) {
    scores.set('edge', rampScore(pose.edgeMargin, -0.1, MIN_EDGE_MARGIN, 0.05));
    scores.set('small', rampScore(pose.palmShare, 0, MIN_PALM_SHARE, 0.35));
    scores.set('tilted', rampScore(pose.widthToLength, 0.3, MIN_WIDTH_TO_LENGTH, 0.75));
  }
  const issues = QUALITY_ISSUE_ORDER.filter((issue) => (scores.get(issue) ?? 1) < 0.5);
  const score = Math.min(...scores.values());
  return {
    score,
    passes: issues.length === 0,
    issues,
    mean,
    contrast,
    darkShare,
    brightShare,
    sharpness,
    noise,
    ...(pose === undefined ? {} : { pose }),
  };
}
