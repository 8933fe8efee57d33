/**
 * A phone camera filming a palm model's surface (palm-model.ts) as the scanner sees it: 128 × 128 grey ROI
 * frames. A hold is one presentation of the hand: its pose (rotation, shift, scale and tilt of the palm in
 * the ROI crop), focus and light are drawn once; each of its frames then moves a little (hand tremor), has
 * its own motion blur and sensor noise, and goes through JPEG as the scanner uploads it.
 *
 * Everything is decided by the hold's seed (packages/palm/src/random.ts). Holds of different palms should
 * get different seeds (holdSeed(seed, identity, hold)), or they share their pose and light.
 */
import { createRng, mixSeed, type Rng } from '../../packages/palm/src/random';
import { SURFACE_HIGH, SURFACE_LOW, type PalmIdentity, type PalmModel } from './palm-model';

export type NuisanceLevel = 'easy' | 'medium' | 'hard';

type Range = readonly [number, number];

/** The range each nuisance is drawn from (uniform), per hold unless its description says per frame. */
export interface NuisanceParameters {
  rotation_deg: Range;
  translation: Range;
  scale: Range;
  tilt_deg: Range;
  defocus_px: Range;
  motion_px: Range;
  gradient: Range;
  gain: Range;
  gamma: Range;
  noise_grey: Range;
  jpeg_quality: Range;
  jitter_px: Range;
  jitter_deg: Range;
}

export const NUISANCE_LEVELS: Readonly<Record<NuisanceLevel, Readonly<NuisanceParameters>>> = {
  easy: {
    rotation_deg: [-4, 4],
    translation: [-0.02, 0.02],
    scale: [-0.025, 0.025],
    tilt_deg: [0, 4],
    defocus_px: [0, 0.8],
    motion_px: [0, 1],
    gradient: [0, 0.15],
    gain: [0.85, 1.15],
    gamma: [0.9, 1.1],
    noise_grey: [1, 4],
    jpeg_quality: [75, 90],
    jitter_px: [-1, 1],
    jitter_deg: [-0.5, 0.5],
  },
  medium: {
    rotation_deg: [-8, 8],
    translation: [-0.04, 0.04],
    scale: [-0.05, 0.05],
    tilt_deg: [0, 8],
    defocus_px: [0, 1.5],
    motion_px: [0, 2],
    gradient: [0, 0.3],
    gain: [0.7, 1.3],
    gamma: [0.75, 1.35],
    noise_grey: [2, 8],
    jpeg_quality: [60, 90],
    jitter_px: [-1, 1],
    jitter_deg: [-0.5, 0.5],
  },
  hard: {
    rotation_deg: [-15, 15],
    translation: [-0.08, 0.08],
    scale: [-0.1, 0.1],
    tilt_deg: [0, 15],
    defocus_px: [0, 2.5],
    motion_px: [0, 4],
    gradient: [0, 0.5],
    gain: [0.5, 1.5],
    gamma: [0.6, 1.7],
    noise_grey: [3, 12],
    jpeg_quality: [40, 90],
    jitter_px: [-1, 1],
    jitter_deg: [-0.5, 0.5],
  },
};

/** What each parameter is, for the report's table (units in the names: px are pixels of the 128 frame). */
export const NUISANCE_DESCRIPTIONS: Readonly<Record<keyof NuisanceParameters, string>> = {
  rotation_deg: 'in-plane rotation of the palm, degrees',
  translation: 'shift of the palm per axis, fraction of the crop',
  scale: 'relative scale error of the crop',
  tilt_deg: 'perspective tilt of the palm plane about a random axis in the image plane, degrees',
  defocus_px: 'defocus: radius of the disc kernel, px',
  motion_px: 'motion blur per frame: length of the line kernel in a random direction, px',
  gradient: 'light gradient: relative brightness change from the centre to the edge, random direction',
  gain: 'exposure gain',
  gamma: 'tone curve exponent (value^gamma)',
  noise_grey: 'sensor noise: Gaussian standard deviation, grey levels of 255',
  jpeg_quality: 'JPEG quality (jpeg-js), per hold',
  jitter_px: 'hand tremor per frame: shift per axis, px',
  jitter_deg: 'hand tremor per frame: rotation, degrees',
};

/** The nuisance levels as a Markdown table, one row per parameter and a column per level. */
export function nuisanceTable(): string {
  const levels: NuisanceLevel[] = ['easy', 'medium', 'hard'];
  const range = ([low, high]: Range): string => (low === -high ? `±${high}` : `${low} – ${high}`);
  const rows = (Object.keys(NUISANCE_DESCRIPTIONS) as (keyof NuisanceParameters)[]).map(
    (key) =>
      `| ${NUISANCE_DESCRIPTIONS[key]} | ${levels.map((level) => range(NUISANCE_LEVELS[level][key])).join(' | ')} |`,
  );
  return [`| parameter | ${levels.join(' | ')} |`, `|---|${levels.map(() => '---|').join('')}`, ...rows].join(
    '\n',
  );
}

export const FRAME_SIDE = 128;

/** The parameters of one hold, drawn from its level's ranges by drawHold. */
export interface HoldParameters {
  level: NuisanceLevel;
  /** The surface variant (skin state) of this hold. */
  variant: number;
  rotation_deg: number;
  /** Shift of the palm in the frame, fraction of the crop. */
  translationX: number;
  translationY: number;
  /** The palm appears `scale` times its nominal size. */
  scale: number;
  tilt_deg: number;
  /** Direction of the tilt axis in the image plane, degrees. */
  tiltAxis_deg: number;
  defocus_px: number;
  gain: number;
  /** Relative brightness change from the centre to the edge along gradientAngle_deg. */
  gradient: number;
  gradientAngle_deg: number;
  gamma: number;
  noise_grey: number;
  jpegQuality: number;
}

/** The parameters of one frame of a hold. */
export interface FrameParameters {
  jitterX_px: number;
  jitterY_px: number;
  jitter_deg: number;
  motion_px: number;
  motionAngle_deg: number;
}

const uniform = (rng: Rng, [low, high]: Range): number => rng.range(low, high);

/** The pose, focus, light and camera settings of the hold `seed` at this level. */
export function drawHold(level: NuisanceLevel, seed: number): HoldParameters {
  const p = NUISANCE_LEVELS[level];
  const rng = createRng(mixSeed(seed, 0x40d));
  return {
    level,
    variant: rng.nextU32(),
    rotation_deg: uniform(rng, p.rotation_deg),
    translationX: uniform(rng, p.translation),
    translationY: uniform(rng, p.translation),
    scale: 1 + uniform(rng, p.scale),
    tilt_deg: uniform(rng, p.tilt_deg),
    tiltAxis_deg: rng.range(0, 360),
    defocus_px: uniform(rng, p.defocus_px),
    gain: uniform(rng, p.gain),
    gradient: uniform(rng, p.gradient),
    gradientAngle_deg: rng.range(0, 360),
    gamma: uniform(rng, p.gamma),
    noise_grey: uniform(rng, p.noise_grey),
    jpegQuality: Math.round(uniform(rng, p.jpeg_quality)),
  };
}

/** The tremor and motion blur of frame `frame` of the hold `seed`. */
export function drawFrame(level: NuisanceLevel, seed: number, frame: number): FrameParameters {
  const p = NUISANCE_LEVELS[level];
  const rng = createRng(mixSeed(seed, 0xf4a, frame));
  return {
    jitterX_px: uniform(rng, p.jitter_px),
    jitterY_px: uniform(rng, p.jitter_px),
    jitter_deg: uniform(rng, p.jitter_deg),
    motion_px: uniform(rng, p.motion_px),
    motionAngle_deg: rng.range(0, 180),
  };
}

/** Surface resolution: 256 px per ROI unit (twice the frame's), sampled 2 × 2 per frame pixel. */
const SURFACE_SIZE = 512;
const SUPERSAMPLE = 2;
/** Distance from the camera to the palm plane, ROI sides: sets how strongly a tilt shows as perspective. */
const CAMERA_DISTANCE = 3;
/** Pixels rendered around the frame so the blurs see real content at its edges. */
const MARGIN = 8;

/** Bilinear sample of a surface at ROI coordinates (x, y), edges held. */
function sampleSurface(surface: Float32Array, size: number, x: number, y: number): number {
  const perUnit = size / (SURFACE_HIGH - SURFACE_LOW);
  const sx = Math.min(size - 1, Math.max(0, (x - SURFACE_LOW) * perUnit - 0.5));
  const sy = Math.min(size - 1, Math.max(0, (y - SURFACE_LOW) * perUnit - 0.5));
  const x0 = Math.min(size - 2, Math.floor(sx));
  const y0 = Math.min(size - 2, Math.floor(sy));
  const fx = sx - x0;
  const fy = sy - y0;
  const i = y0 * size + x0;
  const top = surface[i]! + (surface[i + 1]! - surface[i]!) * fx;
  const bottom = surface[i + size]! + (surface[i + size + 1]! - surface[i + size]!) * fx;
  return top + (bottom - top) * fy;
}

/**
 * The palm seen by the camera in one frame: (side + 2 margin)² values, each the mean of SUPERSAMPLE² surface
 * samples, under the hold's light (gain and gradient), before blur and the tone curve.
 */
function viewFrame(
  surface: Float32Array,
  hold: HoldParameters,
  frame: FrameParameters,
  side: number,
): Float32Array {
  const full = side + 2 * MARGIN;
  const theta = ((hold.rotation_deg + frame.jitter_deg) * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const tx = hold.translationX + frame.jitterX_px / side;
  const ty = hold.translationY + frame.jitterY_px / side;
  // The palm plane tilted by phi about the axis a = (ax, ay, 0) through the ROI centre, at CAMERA_DISTANCE:
  // its normal is R_a(phi) e_z, and its in-plane axes are R_a(phi) e_x, R_a(phi) e_y (Rodrigues).
  const phi = (hold.tilt_deg * Math.PI) / 180;
  const axis = (hold.tiltAxis_deg * Math.PI) / 180;
  const ax = Math.cos(axis);
  const ay = Math.sin(axis);
  const c = Math.cos(phi);
  const s = Math.sin(phi);
  const rot = (vx: number, vy: number, vz: number): [number, number, number] => {
    // R v = v c + (a × v) s + a (a · v)(1 − c), with a = (ax, ay, 0).
    const dot = ax * vx + ay * vy;
    return [
      vx * c + ay * vz * s + ax * dot * (1 - c),
      vy * c - ax * vz * s + ay * dot * (1 - c),
      vz * c + (ax * vy - ay * vx) * s,
    ];
  };
  const [ex0, ex1, ex2] = rot(1, 0, 0);
  const [ey0, ey1, ey2] = rot(0, 1, 0);
  const [n0, n1, n2] = rot(0, 0, 1);
  const d = CAMERA_DISTANCE;
  const gradX = Math.cos((hold.gradientAngle_deg * Math.PI) / 180) * hold.gradient * 2;
  const gradY = Math.sin((hold.gradientAngle_deg * Math.PI) / 180) * hold.gradient * 2;
  const out = new Float32Array(full * full);
  const step = 1 / (side * SUPERSAMPLE);
  for (let py = 0; py < full; py++) {
    for (let px = 0; px < full; px++) {
      let sum = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          // Image point relative to the ROI centre, without the shift.
          const ux = (px - MARGIN) / side + (sx + 0.5) * step - 0.5 - tx;
          const uy = (py - MARGIN) / side + (sy + 0.5) * step - 0.5 - ty;
          // The ray through (ux, uy) at focal length d meets the tilted plane through (0, 0, d) at P.
          const lambda = (n2 * d) / (n0 * ux + n1 * uy + n2 * d);
          const qx = lambda * ux;
          const qy = lambda * uy;
          const qz = lambda * d - d;
          const wx = ex0 * qx + ex1 * qy + ex2 * qz;
          const wy = ey0 * qx + ey1 * qy + ey2 * qz;
          // Undo the palm's in-plane rotation and scale about the ROI centre.
          const palmX = 0.5 + (cos * wx + sin * wy) / hold.scale;
          const palmY = 0.5 + (-sin * wx + cos * wy) / hold.scale;
          sum += sampleSurface(surface, SURFACE_SIZE, palmX, palmY);
        }
      }
      const fx = (px - MARGIN + 0.5) / side - 0.5;
      const fy = (py - MARGIN + 0.5) / side - 0.5;
      const light = hold.gain * (1 + gradX * fx + gradY * fy);
      out[py * full + px] = (sum / (SUPERSAMPLE * SUPERSAMPLE)) * light;
    }
  }
  return out;
}

/** Convolution with a normalised kernel given as (dx, dy, weight) taps, edges held. */
function convolve(
  image: Float32Array,
  full: number,
  taps: readonly [number, number, number][],
): Float32Array {
  if (taps.length === 1) return image;
  const out = new Float32Array(image.length);
  for (let y = 0; y < full; y++) {
    for (let x = 0; x < full; x++) {
      let acc = 0;
      for (const [dx, dy, w] of taps) {
        const xx = Math.min(full - 1, Math.max(0, x + dx));
        const yy = Math.min(full - 1, Math.max(0, y + dy));
        acc += w * image[yy * full + xx]!;
      }
      out[y * full + x] = acc;
    }
  }
  return out;
}

function normalise(taps: [number, number, number][]): [number, number, number][] {
  const kept = taps.filter(([, , w]) => w > 1e-4);
  const total = kept.reduce((sum, [, , w]) => sum + w, 0);
  return kept.map(([dx, dy, w]) => [dx, dy, w / total]);
}

/** A disc of this radius (px), its rim antialiased: defocus. Radius 0 is the identity. */
export function discKernel(radius: number): [number, number, number][] {
  const r = Math.ceil(radius + 0.5);
  const taps: [number, number, number][] = [];
  for (let dy = -r; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) {
      taps.push([dx, dy, Math.min(1, Math.max(0, radius + 0.5 - Math.hypot(dx, dy)))]);
    }
  }
  return normalise(taps);
}

/** A line of this length (px) in this direction, by 1/4-px steps with bilinear weights: motion blur. */
export function lineKernel(length: number, angle_deg: number): [number, number, number][] {
  const steps = Math.max(1, Math.ceil(length * 4));
  const dirX = Math.cos((angle_deg * Math.PI) / 180);
  const dirY = Math.sin((angle_deg * Math.PI) / 180);
  const weights = new Map<string, [number, number, number]>();
  const add = (dx: number, dy: number, w: number): void => {
    const key = `${dx},${dy}`;
    const tap = weights.get(key);
    if (tap) tap[2] += w;
    else weights.set(key, [dx, dy, w]);
  };
  for (let k = 0; k <= steps; k++) {
    const t = length === 0 ? 0 : (k / steps - 0.5) * length;
    const x = t * dirX;
    const y = t * dirY;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    add(x0, y0, (1 - fx) * (1 - fy));
    add(x0 + 1, y0, fx * (1 - fy));
    add(x0, y0 + 1, (1 - fx) * fy);
    add(x0 + 1, y0 + 1, fx * fy);
  }
  return normalise([...weights.values()]);
}

/** The baseline JPEG luminance quantisation table (ITU T.81 annex K), natural order. */
const LUMA_QUANT = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/** DCT_BASIS[u * 8 + x] = C(u)/2 · cos((2x + 1)uπ/16): the orthonormal 8-point DCT. */
const DCT_BASIS = Float64Array.from({ length: 64 }, (_, i) => {
  const u = Math.floor(i / 8);
  const x = i % 8;
  return (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
});

/**
 * What JPEG does to a grey frame, computed directly: 8 × 8 DCT of the level-shifted pixels, quantisation with
 * the luminance table scaled to `quality` as libjpeg (and jpeg-js) scale it, inverse DCT, rounding. A grey
 * image's chroma is flat and survives JPEG exactly, so this is the whole round trip, without the entropy
 * coding that costs jpeg-js 30 ms a frame (it agrees with a jpeg-js round trip to within a grey level or so).
 */
export function jpegLumaRoundTrip(frame: Uint8Array, side: number, quality: number): Uint8Array {
  if (side % 8 !== 0) throw new RangeError('the side must be a multiple of 8');
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const sf = q < 50 ? Math.floor(5000 / q) : Math.floor(200 - q * 2);
  const table = LUMA_QUANT.map((t) => Math.min(255, Math.max(1, Math.floor((t * sf + 50) / 100))));
  const out = new Uint8Array(side * side);
  const block = new Float64Array(64);
  const temp = new Float64Array(64);
  for (let by = 0; by < side; by += 8) {
    for (let bx = 0; bx < side; bx += 8) {
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) block[y * 8 + x] = frame[(by + y) * side + bx + x]! - 128;
      }
      // Forward: rows, then columns.
      for (let y = 0; y < 8; y++) {
        for (let u = 0; u < 8; u++) {
          let acc = 0;
          for (let x = 0; x < 8; x++) acc += DCT_BASIS[u * 8 + x]! * block[y * 8 + x]!;
          temp[y * 8 + u] = acc;
        }
      }
      for (let v = 0; v < 8; v++) {
        for (let u = 0; u < 8; u++) {
          let acc = 0;
          for (let y = 0; y < 8; y++) acc += DCT_BASIS[v * 8 + y]! * temp[y * 8 + u]!;
          const k = v * 8 + u;
          const scaled = acc / table[k]!;
          // Rounded half away from zero, as the encoder does, and multiplied back as the decoder does.
          block[k] = (scaled > 0 ? Math.floor(scaled + 0.5) : Math.ceil(scaled - 0.5)) * table[k]!;
        }
      }
      // Inverse: columns, then rows.
      for (let y = 0; y < 8; y++) {
        for (let u = 0; u < 8; u++) {
          let acc = 0;
          for (let v = 0; v < 8; v++) acc += DCT_BASIS[v * 8 + y]! * block[v * 8 + u]!;
          temp[y * 8 + u] = acc;
        }
      }
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          let acc = 0;
          for (let u = 0; u < 8; u++) acc += DCT_BASIS[u * 8 + x]! * temp[y * 8 + u]!;
          out[(by + y) * side + bx + x] = Math.min(255, Math.max(0, Math.round(acc + 128)));
        }
      }
    }
  }
  return out;
}

/** One frame of a hold from the palm's surface, with its tremor, blur, tone curve, noise and JPEG. */
export function captureFrame(
  surface: Float32Array,
  hold: HoldParameters,
  frame: FrameParameters,
  noiseSeed: number,
): Uint8Array {
  const side = FRAME_SIDE;
  const full = side + 2 * MARGIN;
  let image = viewFrame(surface, hold, frame, side);
  image = convolve(image, full, discKernel(hold.defocus_px));
  image = convolve(image, full, lineKernel(frame.motion_px, frame.motionAngle_deg));
  const rng = createRng(noiseSeed);
  const pixels = new Uint8Array(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const value = Math.min(1, Math.max(0, image[(y + MARGIN) * full + x + MARGIN]!));
      const grey = Math.pow(value, hold.gamma) * 255 + rng.normal() * hold.noise_grey;
      pixels[y * side + x] = Math.min(255, Math.max(0, Math.round(grey)));
    }
  }
  return jpegLumaRoundTrip(pixels, side, hold.jpegQuality);
}

/** The surface a hold looks at (its variant at the camera's resolution). */
export function holdSurface(identity: PalmIdentity, hold: HoldParameters): Float32Array {
  return identity.surface(hold.variant, SURFACE_SIZE);
}

/**
 * The `frames` frames (128 × 128 grey, row-major) of one hold of this palm in front of the camera at this
 * nuisance level: pose, tilt, focus and light drawn once from `seed`, then per frame a tremor of up to 1 px
 * and 0.5°, its own motion blur, sensor noise and the hold's JPEG quality.
 */
export function captureHold(
  identity: PalmIdentity,
  level: NuisanceLevel,
  seed: number,
  frames: number,
): Uint8Array[] {
  if (!Number.isInteger(frames) || frames < 0) throw new RangeError('frames must be a whole number');
  const hold = drawHold(level, seed);
  const surface = holdSurface(identity, hold);
  const out: Uint8Array[] = [];
  for (let f = 0; f < frames; f++) {
    out.push(captureFrame(surface, hold, drawFrame(level, seed, f), mixSeed(seed, 0x9015e, f)));
  }
  return out;
}

/** The seed of palm `identity`'s hold number `hold` in a population drawn from `seed` (as captureSet uses it). */
export function holdSeed(seed: number, identity: number, hold: number): number {
  return mixSeed(seed, identity, hold, 0x401d);
}

export interface CapturedHold {
  identity: number;
  hold: number;
  frames: Uint8Array[];
}

/**
 * The holds of a population, palm by palm: for palms 0..identities − 1 of `model` (drawn from `seed`), holds
 * 0..holds − 1 of `frames` frames each, hold h of palm i seeded holdSeed(seed, i, h). Lazy, so a benchmark
 * can stream them.
 */
export function* captureSet(
  model: PalmModel,
  level: NuisanceLevel,
  options: { seed: number; identities: number; holds: number; frames: number; firstIdentity?: number },
): Generator<CapturedHold> {
  const first = options.firstIdentity ?? 0;
  for (let i = first; i < first + options.identities; i++) {
    const palm = model.identity(options.seed, i);
    for (let h = 0; h < options.holds; h++) {
      yield {
        identity: i,
        hold: h,
        frames: captureHold(palm, level, holdSeed(options.seed, i, h), options.frames),
      };
    }
  }
}
