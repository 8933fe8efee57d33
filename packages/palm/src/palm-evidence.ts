/**
 * Palm evidence (issue 27): whether a grey 128 × 128 frame that passed the quality gate (quality.ts) shows a
 * palm at all. The gate measures light, contrast and sharpness, which a screen, a printed pattern or
 * Chromium's fake camera (a green screen with a turning disc) have as well; these measures are what a palm
 * has and they do not:
 * - tones: a palm's grey levels spread over a range (skin shading, creases, texture, sensor noise); a screen
 *   or a drawn pattern is a few flat tones. Measured as the share of pixels in the two commonest grey levels
 *   (clipped ones left out: those are the quality gate's) and the share of pixels whose 3 × 3 neighbourhood is one grey level;
 * - texture: most of a palm's variance is picture (its lines and shading), not noise; random noise is all
 *   noise. Measured as the share of the grey variance that the frame's own noise estimate (Immerkær) does not
 *   explain;
 * - lines: a palm's creases are thin DARK lines on lighter skin, so its fine detail (difference of Gaussians
 *   σ 1 – 4 px) is skewed towards dark: a few strongly negative values. Edges of a shape, stripes of equal
 *   width and noise are symmetric (skewness about 0), light marks on a dark ground skewed the other way.
 *
 * Measured on frames the engine was not tuned on as well as its own: synthetic palms (synthetic.ts) skew at
 * most −0.9 ('medium'), −0.23 ('hard'); the benchmark's held-out palm model B (bench/palm-data) at most −0.46
 * through its camera model; blurred noise and the fake camera's disc lie between −0.2 and +2.8.
 *
 * This is not liveness: a photograph of a palm is a palm here. It keeps frames of no palm out of templates
 * and searches, where a pattern that is the same on every camera would otherwise enrol and then match.
 */
import { CLIPPED_BRIGHT_GREY, CLIPPED_DARK_GREY, estimateNoise, gaussian } from './quality';

/** Why a frame is not taken for a palm. */
export type PalmEvidenceIssue = 'tones' | 'texture' | 'lines';

export interface PalmEvidence {
  /** Whether the frame shows a palm by all three measures. */
  palm: boolean;
  /** What failed (empty when `palm`). */
  issues: PalmEvidenceIssue[];
  /** Share of pixels in the two commonest grey levels (clipped levels left out). */
  toneShare: number;
  /** Share of pixels (away from the edge) whose 3 × 3 neighbourhood is one grey level. */
  flatShare: number;
  /** Share of the grey variance that is picture rather than noise, 0..1. */
  structure: number;
  /** Skewness of the fine band (negative: dark lines). */
  lineSkew: number;
}

/** A palm's two commonest grey levels hold a few percent of it; the fake camera's about 95 %. */
export const MAX_TONE_SHARE = 0.3;
/** Flat 3 × 3 patches: about 1 % of a palm at most (a clean camera); most of a drawn pattern. */
export const MAX_FLAT_SHARE = 0.3;
/** Share of variance above noise: palms 0.2 and up (synthetic hard captures with the strongest sensor noise), random noise about 0. */
export const MIN_STRUCTURE = 0.15;
/** The fine band's skewness must be at most this (dark creases); see the module's note for the measures. */
export const MAX_LINE_SKEW = -0.2;

const FINE_BAND: readonly [number, number] = [1, 4];
/** Pixels along each edge left out of the band (the blurs clamp at the edge). */
const BAND_MARGIN_PX = 8;

/** Skewness of the difference of Gaussians `band` of the frame, inside the margin. */
export function lineSkewOf(frame: Uint8Array, side: number): number {
  const image = Float32Array.from(frame);
  const fine = gaussian(image, side, FINE_BAND[0]);
  const coarse = gaussian(image, side, FINE_BAND[1]);
  let count = 0;
  let sum = 0;
  for (let y = BAND_MARGIN_PX; y < side - BAND_MARGIN_PX; y += 1) {
    for (let x = BAND_MARGIN_PX; x < side - BAND_MARGIN_PX; x += 1) {
      sum += fine[y * side + x]! - coarse[y * side + x]!;
      count += 1;
    }
  }
  const mean = sum / count;
  let m2 = 0;
  let m3 = 0;
  for (let y = BAND_MARGIN_PX; y < side - BAND_MARGIN_PX; y += 1) {
    for (let x = BAND_MARGIN_PX; x < side - BAND_MARGIN_PX; x += 1) {
      const d = fine[y * side + x]! - coarse[y * side + x]! - mean;
      m2 += d * d;
      m3 += d * d * d;
    }
  }
  m2 /= count;
  m3 /= count;
  // A band with (almost) nothing in it has no lines.
  return m2 > 1e-6 ? m3 / Math.pow(m2, 1.5) : 0;
}

/** The palm evidence of one grey frame (`side` × `side`, row-major); see the module's note. */
export function palmEvidence(frame: Uint8Array, side: number): PalmEvidence {
  if (!Number.isInteger(side) || side < 32 || frame.length !== side * side)
    throw new RangeError('frame does not match its side');
  const histogram = new Uint32Array(256);
  let sum = 0;
  let squares = 0;
  for (const grey of frame) {
    histogram[grey]! += 1;
    sum += grey;
    squares += grey * grey;
  }
  let first = 0;
  let second = 0;
  // Clipped pixels are the quality gate's to judge (a palm in strong light clips many at 255).
  for (const count of histogram.subarray(CLIPPED_DARK_GREY + 1, CLIPPED_BRIGHT_GREY)) {
    if (count > first) {
      second = first;
      first = count;
    } else if (count > second) second = count;
  }
  const toneShare = (first + second) / frame.length;

  let flat = 0;
  for (let y = 1; y < side - 1; y += 1) {
    for (let x = 1; x < side - 1; x += 1) {
      const centre = frame[y * side + x]!;
      let same = true;
      for (let dy = -1; dy <= 1 && same; dy += 1) {
        const row = (y + dy) * side + x;
        same = frame[row - 1] === centre && frame[row] === centre && frame[row + 1] === centre;
      }
      if (same) flat += 1;
    }
  }
  const flatShare = flat / ((side - 2) * (side - 2));

  const mean = sum / frame.length;
  const variance = Math.max(0, squares / frame.length - mean * mean);
  const noise = estimateNoise(frame, side);
  const structure = variance > 0 ? Math.max(0, 1 - (noise * noise) / variance) : 0;
  const lineSkew = lineSkewOf(frame, side);

  const issues: PalmEvidenceIssue[] = [];
  if (toneShare > MAX_TONE_SHARE || flatShare > MAX_FLAT_SHARE) issues.push('tones');
  if (structure < MIN_STRUCTURE) issues.push('texture');
  if (!(lineSkew <= MAX_LINE_SKEW)) issues.push('lines');
  return { palm: issues.length === 0, issues, toneShare, flatShare, structure, lineSkew };
}
