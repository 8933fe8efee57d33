/**
 * Synthetic palmprint ROIs in the manner of BézierPalm (Zhao et al., ECCV 2022): an identity is a set of
 * creases drawn as quadratic Bézier curves over a skin texture, and each sample of it is that palm seen
 * again through a slightly different ROI crop, light and sensor. Accuracy can then be measured on as many
 * identities as needed without collecting anyone's biometric data. Everything is decided by the seed.
 *
 * Coordinates are fractions of the ROI square (x right, y down); the thumb side is x = 0 (left hands are
 * mirrored into this frame by the ROI step), the fingers are above y = 0 and the wrist below y = 1.
 */
import { createRng, mixSeed, type Rng } from './random';

export type SyntheticSetting = 'easy' | 'medium' | 'hard';

interface Point {
  x: number;
  y: number;
}

interface Crease {
  start: Point;
  control: Point;
  end: Point;
  /** Gaussian half-width of the crease's dark profile, as a fraction of the ROI side. */
  width: number;
  /** Darkening at the crease's centre, 0..1. */
  depth: number;
  /** Principal lines run off the ROI's edge; secondary creases fade out at both ends. */
  principal: boolean;
}

export interface SyntheticIdentity {
  /** Seeds the per-capture variations of this palm. */
  readonly sampleSeed: number;
  readonly creases: readonly Crease[];
  /** Skin tone before lighting, 0..1. */
  readonly tone: number;
  /** Low-frequency skin texture: two octaves of value noise on coarse grids. */
  readonly textureCoarse: Float32Array;
  readonly textureFine: Float32Array;
}

interface SampleVariation {
  /** Largest ROI rotation, degrees (uniform in ±). */
  rotation_deg: number;
  /** Largest relative ROI scale error. */
  scale: number;
  /** Largest ROI shift per axis, fraction of the side. */
  shift: number;
  /** Standard deviation of each Bézier point's jitter (skin stretch, hand pose), fraction of the side. */
  jitter: number;
  gain: readonly [number, number];
  /** Largest illumination slope across the ROI (relative brightness change from centre to edge). */
  gradient: number;
  gamma: readonly [number, number];
  /** Gaussian blur sigma range, pixels of a 128-pixel ROI (scaled with the size). */
  blur_px: readonly [number, number];
  /** Sensor noise standard deviation range, grey levels of 255. */
  noise_grey: readonly [number, number];
  /** Probability that a secondary crease is not visible in a sample. */
  dropout: number;
  /** Relative standard deviation of each crease's depth per sample. */
  depthJitter: number;
}

/**
 * Medium is the benchmark's setting: at most 5° of ROI rotation, a few percent of shift and scale, and
 * photometric noise comparable to a phone camera under indoor light.
 */
export const SYNTHETIC_SETTINGS: Readonly<Record<SyntheticSetting, SampleVariation>> = {
  easy: {
    rotation_deg: 2,
    scale: 0.02,
    shift: 0.015,
    jitter: 0.004,
    gain: [0.85, 1.15],
    gradient: 0.1,
    gamma: [0.9, 1.1],
    blur_px: [0.2, 0.6],
    noise_grey: [1, 3],
    dropout: 0.05,
    depthJitter: 0.1,
  },
  medium: {
    rotation_deg: 5,
    scale: 0.04,
    shift: 0.03,
    jitter: 0.008,
    gain: [0.7, 1.3],
    gradient: 0.25,
    gamma: [0.75, 1.35],
    blur_px: [0.3, 1.2],
    noise_grey: [2, 8],
    dropout: 0.15,
    depthJitter: 0.2,
  },
  hard: {
    rotation_deg: 10,
    scale: 0.08,
    shift: 0.06,
    jitter: 0.015,
    gain: [0.5, 1.5],
    gradient: 0.45,
    gamma: [0.6, 1.7],
    blur_px: [0.5, 2],
    noise_grey: [4, 14],
    dropout: 0.3,
    depthJitter: 0.35,
  },
};

const TEXTURE_COARSE = 6;
const TEXTURE_FINE = 13;

function point(rng: Rng, x0: number, x1: number, y0: number, y1: number): Point {
  return { x: rng.range(x0, x1), y: rng.range(y0, y1) };
}

function principal(start: Point, control: Point, end: Point, rng: Rng): Crease {
  return {
    start,
    control,
    end,
    width: rng.range(0.011, 0.018),
    depth: rng.range(0.3, 0.5),
    principal: true,
  };
}

/** A new palm: the principal lines where palms have them, then 5–15 thinner secondary creases. */
export function createIdentity(seed: number, identity: number): SyntheticIdentity {
  const rng = createRng(mixSeed(seed, identity, 0x1d));
  const creases: Crease[] = [];
  // Heart line: from the little-finger edge across the top, rising towards the index finger.
  creases.push(
    principal(
      { x: 1, y: rng.range(0.12, 0.35) },
      point(rng, 0.45, 0.65, 0.25, 0.42),
      rng.chance(0.6) ? { x: rng.range(0.12, 0.45), y: 0 } : { x: 0, y: rng.range(0.05, 0.2) },
      rng,
    ),
  );
  // Head line and life line share their start on the thumb side, between index finger and thumb.
  const headStart = { x: 0, y: rng.range(0.28, 0.45) };
  creases.push(
    principal(
      headStart,
      point(rng, 0.4, 0.6, 0.35, 0.5),
      rng.chance(0.7) ? { x: 1, y: rng.range(0.5, 0.8) } : { x: rng.range(0.75, 0.95), y: 1 },
      rng,
    ),
  );
  creases.push(
    principal(
      { x: 0, y: Math.min(0.55, headStart.y + rng.range(0, 0.08)) },
      point(rng, 0.4, 0.62, 0.5, 0.7),
      { x: rng.range(0.2, 0.5), y: 1 },
      rng,
    ),
  );
  // The fate line, present in about one palm in ten: up the middle from the wrist.
  if (rng.chance(0.1)) {
    creases.push(
      principal(
        { x: rng.range(0.45, 0.7), y: 1 },
        point(rng, 0.45, 0.65, 0.45, 0.65),
        { x: rng.range(0.4, 0.7), y: 0 },
        rng,
      ),
    );
  }
  const secondary = 5 + rng.int(11);
  for (let i = 0; i < secondary; i++) {
    const length = rng.range(0.12, 0.45);
    const angle = rng.range(0, Math.PI);
    const centre = point(rng, 0.08, 0.92, 0.08, 0.92);
    const dx = (Math.cos(angle) * length) / 2;
    const dy = (Math.sin(angle) * length) / 2;
    const bend = rng.range(-0.2, 0.2) * length;
    creases.push({
      start: { x: centre.x - dx, y: centre.y - dy },
      control: { x: centre.x - Math.sin(angle) * bend, y: centre.y + Math.cos(angle) * bend },
      end: { x: centre.x + dx, y: centre.y + dy },
      width: rng.range(0.004, 0.009),
      depth: rng.range(0.12, 0.3),
      principal: false,
    });
  }
  const textureCoarse = new Float32Array((TEXTURE_COARSE + 1) ** 2);
  for (let i = 0; i < textureCoarse.length; i++) textureCoarse[i] = rng.normal();
  const textureFine = new Float32Array((TEXTURE_FINE + 1) ** 2);
  for (let i = 0; i < textureFine.length; i++) textureFine[i] = rng.normal();
  return {
    sampleSeed: mixSeed(seed, identity, 0x5a),
    creases,
    tone: rng.range(0.55, 0.75),
    textureCoarse,
    textureFine,
  };
}

/** Smooth value noise on a (cells + 1)² grid, at palm coordinates clamped to the square. */
function valueNoise(grid: Float32Array, cells: number, x: number, y: number): number {
  const gx = Math.min(Math.max(x, 0), 1) * cells;
  const gy = Math.min(Math.max(y, 0), 1) * cells;
  const ix = Math.min(Math.floor(gx), cells - 1);
  const iy = Math.min(Math.floor(gy), cells - 1);
  const fx = gx - ix;
  const fy = gy - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const row = cells + 1;
  const top = grid[iy * row + ix]! + (grid[iy * row + ix + 1]! - grid[iy * row + ix]!) * sx;
  const bottom =
    grid[(iy + 1) * row + ix]! + (grid[(iy + 1) * row + ix + 1]! - grid[(iy + 1) * row + ix]!) * sx;
  return top + (bottom - top) * sy;
}

/**
 * Records in `distance2` each pixel's squared distance to one crease (the minimum over stamps along the
 * curve) and its strength there, and returns the touched pixel box so the caller can shade and clear just
 * that part. The profile is applied once per pixel afterwards, which keeps exp() out of the stamping loop.
 */
function traceCrease(
  distance2: Float32Array,
  strength: Float32Array,
  size: number,
  p0: Point,
  p1: Point,
  p2: Point,
  radius_px: number,
  depth: number,
  taper: boolean,
): [number, number, number, number] {
  const polygon_px = (Math.hypot(p1.x - p0.x, p1.y - p0.y) + Math.hypot(p2.x - p1.x, p2.y - p1.y)) * size;
  const steps = Math.min(4096, Math.max(2, Math.ceil(polygon_px / 0.5)));
  const radius = Math.ceil(radius_px);
  let x0 = size;
  let y0 = size;
  let x1 = -1;
  let y1 = -1;
  for (let s = 0; s <= steps; s++) {
    const t = s / steps;
    const u = 1 - t;
    const cx = (u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x) * size - 0.5;
    const cy = (u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y) * size - 0.5;
    let here = depth;
    if (taper) {
      const edge = Math.min(t, 1 - t) / 0.2;
      if (edge < 1) here *= edge * edge * (3 - 2 * edge);
    }
    const left = Math.max(0, Math.ceil(cx - radius));
    const right = Math.min(size - 1, Math.floor(cx + radius));
    const top = Math.max(0, Math.ceil(cy - radius));
    const bottom = Math.min(size - 1, Math.floor(cy + radius));
    if (left > right || top > bottom) continue;
    x0 = Math.min(x0, left);
    x1 = Math.max(x1, right);
    y0 = Math.min(y0, top);
    y1 = Math.max(y1, bottom);
    for (let y = top; y <= bottom; y++) {
      const dy2 = (y - cy) * (y - cy);
      const row = y * size;
      for (let x = left; x <= right; x++) {
        const d2 = (x - cx) * (x - cx) + dy2;
        if (d2 < distance2[row + x]!) {
          distance2[row + x] = d2;
          strength[row + x] = here;
        }
      }
    }
  }
  return [x0, y0, x1, y1];
}

/** The skin's tone and texture at each pixel, seen at palm point toPalm(pixel centre as a fraction). */
function paintSkin(
  identity: SyntheticIdentity,
  image: Float32Array,
  size: number,
  toPalm: (ux: number, uy: number) => Point,
): void {
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = toPalm((x + 0.5) / size, (y + 0.5) / size);
      const texture =
        0.07 * valueNoise(identity.textureCoarse, TEXTURE_COARSE, p.x, p.y) +
        0.035 * valueNoise(identity.textureFine, TEXTURE_FINE, p.x, p.y);
      image[y * size + x] = identity.tone * (1 + texture);
    }
  }
}

/**
 * Darkens the identity's creases into `image`, each with this capture's jitter, depth and dropout drawn from
 * `rng` (in a fixed order per crease). `toRoi` maps a palm point to a fraction of the image's side, and a
 * crease `width` (fraction of the palm ROI) spans width · size / scale pixels.
 */
function paintCreases(
  identity: SyntheticIdentity,
  image: Float32Array,
  size: number,
  toRoi: (p: Point) => Point,
  scale: number,
  rng: Rng,
  variation: Pick<SampleVariation, 'jitter' | 'depthJitter' | 'dropout'>,
): void {
  const distance2 = new Float32Array(size * size).fill(Infinity);
  const strength = new Float32Array(size * size);
  const jitter = (p: Point): Point => ({
    x: p.x + rng.normal() * variation.jitter,
    y: p.y + rng.normal() * variation.jitter,
  });
  for (const crease of identity.creases) {
    // Draw the random numbers even for a dropped crease, so one crease's dropout leaves the others alone.
    const start = toRoi(jitter(crease.start));
    const control = toRoi(jitter(crease.control));
    const end = toRoi(jitter(crease.end));
    const depth = Math.min(0.85, crease.depth * Math.max(0.3, 1 + rng.normal() * variation.depthJitter));
    const dropped = rng.chance(variation.dropout);
    if (dropped && !crease.principal) continue;
    const width_px = (crease.width * size) / scale;
    const inverseTwoSigma2 = 1 / (2 * width_px * width_px);
    const [x0, y0, x1, y1] = traceCrease(
      distance2,
      strength,
      size,
      start,
      control,
      end,
      3 * width_px,
      depth,
      !crease.principal,
    );
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const i = y * size + x;
        if (distance2[i] === Infinity) continue;
        image[i]! *= 1 - strength[i]! * Math.exp(-distance2[i]! * inverseTwoSigma2);
        distance2[i] = Infinity;
      }
    }
  }
}

/** Separable Gaussian blur in place (edges clamped). */
function gaussianBlur(image: Float32Array, size: number, sigma_px: number): void {
  if (sigma_px < 0.05) return;
  const radius = Math.ceil(3 * sigma_px);
  const kernel = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma_px * sigma_px));
    sum += kernel[i + radius]!;
  }
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= sum;
  const scratch = new Float32Array(image.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) {
        const xx = Math.min(size - 1, Math.max(0, x + k));
        acc += kernel[k + radius]! * image[y * size + xx]!;
      }
      scratch[y * size + x] = acc;
    }
  }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) {
        const yy = Math.min(size - 1, Math.max(0, y + k));
        acc += kernel[k + radius]! * scratch[yy * size + x]!;
      }
      image[y * size + x] = acc;
    }
  }
}

/**
 * One capture of an identity: a grayscale ROI of size × size pixels, row-major. The sample number picks the
 * capture's variation (sample 0 is as random as any other).
 */
export function renderSample(
  identity: SyntheticIdentity,
  sample: number,
  setting: SyntheticSetting,
  size = 128,
): Uint8Array {
  if (!Number.isInteger(size) || size < 16 || size > 1024) throw new RangeError('ROI size out of range');
  const variation = SYNTHETIC_SETTINGS[setting];
  const rng = createRng(mixSeed(identity.sampleSeed, sample));
  const theta = (rng.range(-1, 1) * variation.rotation_deg * Math.PI) / 180;
  const scale = 1 + rng.range(-1, 1) * variation.scale;
  const shiftX = rng.range(-1, 1) * variation.shift;
  const shiftY = rng.range(-1, 1) * variation.shift;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  // The ROI sees palm point p = c + scale·R(theta)·(u − c) + shift for each ROI point u (c the centre).
  const toPalm = (ux: number, uy: number): Point => ({
    x: 0.5 + scale * (cos * (ux - 0.5) - sin * (uy - 0.5)) + shiftX,
    y: 0.5 + scale * (sin * (ux - 0.5) + cos * (uy - 0.5)) + shiftY,
  });
  const toRoi = (p: Point): Point => {
    const px = (p.x - 0.5 - shiftX) / scale;
    const py = (p.y - 0.5 - shiftY) / scale;
    return { x: 0.5 + cos * px + sin * py, y: 0.5 - sin * px + cos * py };
  };

  const image = new Float32Array(size * size);
  paintSkin(identity, image, size, toPalm);
  paintCreases(identity, image, size, toRoi, scale, rng, variation);

  const gain = rng.range(variation.gain[0], variation.gain[1]);
  const slope = rng.range(-1, 1) * variation.gradient;
  const slopeAngle = rng.range(0, 2 * Math.PI);
  const gamma = rng.range(variation.gamma[0], variation.gamma[1]);
  const gx = Math.cos(slopeAngle) * slope * 2;
  const gy = Math.sin(slopeAngle) * slope * 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const light = gain * (1 + gx * ((x + 0.5) / size - 0.5) + gy * ((y + 0.5) / size - 0.5));
      const value = Math.min(1, Math.max(0, image[y * size + x]! * light));
      image[y * size + x] = Math.pow(value, gamma);
    }
  }
  gaussianBlur(image, size, (rng.range(variation.blur_px[0], variation.blur_px[1]) * size) / 128);
  const noise = rng.range(variation.noise_grey[0], variation.noise_grey[1]);
  const roi = new Uint8Array(size * size);
  for (let i = 0; i < roi.length; i++) {
    roi[i] = Math.min(255, Math.max(0, Math.round(image[i]! * 255 + rng.normal() * noise)));
  }
  return roi;
}

/** How far the surface extends beyond the nominal ROI square [0, 1] on each side, fraction of its side. */
export const SURFACE_MARGIN = 0.5;

/**
 * The palm's reflectance alone (0..1, skin tone × texture, creases darkened), without any camera: a
 * size × size grid over palm coordinates [−0.5, 1.5] on both axes, row-major, for a camera model to look at.
 * `variant` seeds the skin's state for one look (each crease's jitter and depth, the secondary creases'
 * dropout, drawn with the `setting`'s amounts), as renderSample draws them per capture; the pose, light,
 * blur and noise of renderSample are left to the caller. The texture holds its edge values outside [0, 1].
 */
export function renderSurface(
  identity: SyntheticIdentity,
  variant: number,
  size: number,
  setting: SyntheticSetting = 'medium',
): Float32Array {
  if (!Number.isInteger(size) || size < 16 || size > 4096) throw new RangeError('surface size out of range');
  const variation = SYNTHETIC_SETTINGS[setting];
  const rng = createRng(mixSeed(identity.sampleSeed, variant, 0x5f));
  const span = 1 + 2 * SURFACE_MARGIN;
  const toPalm = (ux: number, uy: number): Point => ({
    x: ux * span - SURFACE_MARGIN,
    y: uy * span - SURFACE_MARGIN,
  });
  const toSurface = (p: Point): Point => ({
    x: (p.x + SURFACE_MARGIN) / span,
    y: (p.y + SURFACE_MARGIN) / span,
  });
  const image = new Float32Array(size * size);
  paintSkin(identity, image, size, toPalm);
  paintCreases(identity, image, size, toSurface, span, rng, variation);
  return image;
}

export interface SyntheticPalmOptions {
  seed: number;
  identity: number;
  sample: number;
  setting: SyntheticSetting;
  size?: number;
}

/** Shorthand for one sample of one identity; builds the identity each time (cache it for many samples). */
export function syntheticPalm(options: SyntheticPalmOptions): Uint8Array {
  const identity = createIdentity(options.seed, options.identity);
  return renderSample(identity, options.sample, options.setting, options.size ?? 128);
}
