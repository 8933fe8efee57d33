/**
 * Palm features: the ROI is reduced to a working image, contrast-normalised, filtered by a bank of six
 * even Gabor filters, and each cell of a coarse grid keeps a few bits about its dominant line orientation.
 *
 * - Competitive Code (Kong & Zhang 2004): the orientation whose filter answers most strongly to a dark line
 *   wins; the winner is written in 3 bits chosen so that the Hamming distance between two codes is their
 *   angular distance (0..3 steps of 30°). A mask bit drops cells with no clear line (flat skin).
 * - BOCV (Guo et al. 2009), a measured alternative: one bit per orientation, the sign of its response.
 * - Fast RLOC (Jia et al. 2008), a measured alternative: the filters are MFRAT-style line sums (a plain
 *   line of pixels through the cell, zero-mean) instead of Gabor filters; the darkest line wins and is coded
 *   like Competitive Code.
 * - Ordinal code (Sun et al. 2005), a measured alternative: three bits per cell, the sign of the difference
 *   between the responses of two orthogonal line filters (0° vs 90°, 30° vs 120°, 60° vs 150°).
 *
 * Codes are stored as bit planes, one 32-bit word per grid row and plane (the grid is at most 32 cells
 * wide), so a comparison is XOR and popcount and a horizontal shift is a bit shift.
 */

export type FeatureKind = 'competitive' | 'bocv' | 'rloc' | 'ordinal';

export interface FeatureOptions {
  kind: FeatureKind;
  /** Side of the working image the filters run on, pixels. */
  workingSize: number;
  /** Cells per side of the code grid (≤ 32). */
  grid: number;
  /** Gabor wavelength across the line, working pixels. */
  wavelength_px: number;
  /** Gaussian envelope across and along the filter's line direction, working pixels. */
  sigmaAcross_px: number;
  sigmaAlong_px: number;
  /** Half-width of the local mean/variance window of the contrast normalisation, working pixels. */
  normaliseRadius_px: number;
  /** A cell is masked when its orientation contrast is below this fraction of the image's median. */
  maskFraction: number;
  /**
   * Gaussian smoothing of each orientation's response map across cells (standard deviation in cells; 0 or
   * absent: none). Pools a line's response over its neighbourhood, so a code survives noise and small shifts.
   */
  smooth_cells?: number;
}

export const DEFAULT_FEATURE_OPTIONS: Readonly<FeatureOptions> = {
  kind: 'competitive',
  workingSize: 32,
  grid: 32,
  wavelength_px: 4,
  sigmaAcross_px: 1,
  sigmaAlong_px: 3,
  normaliseRadius_px: 4,
  maskFraction: 0.5,
};

export const ORIENTATIONS = 6;

export interface PalmCode {
  readonly kind: FeatureKind;
  readonly grid: number;
  /** Bits per cell: 3 for Competitive Code, RLOC and Ordinal, 6 for BOCV. */
  readonly planes: number;
  /** planes × grid words: plane p, row y at p·grid + y; bit x of a word is column x. */
  readonly bits: Uint32Array;
  /** grid words: 1 where the cell carries a usable orientation. */
  readonly mask: Uint32Array;
}

export function planesFor(kind: FeatureKind): number {
  return kind === 'bocv' ? ORIENTATIONS : 3;
}

/** Winner orientation -> 3 bits whose Hamming distance is the circular distance between orientations. */
const COMPETITIVE_BITS = [0b000, 0b001, 0b011, 0b111, 0b110, 0b100] as const;

/**
 * Bilinear interpolation of a grey image (`width` × `height`, row-major) at (`x`, `y`) in pixel-index
 * coordinates (pixel (i, j) at x = i, y = j); points outside take the nearest edge.
 */
export function bilinear(
  image: ArrayLike<number>,
  width: number,
  height: number,
  x: number,
  y: number,
): number {
  const fx = Math.min(width - 1, Math.max(0, x));
  const fy = Math.min(height - 1, Math.max(0, y));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const top = image[y0 * width + x0]! * (1 - ax) + image[y0 * width + x1]! * ax;
  const bottom = image[y1 * width + x0]! * (1 - ax) + image[y1 * width + x1]! * ax;
  return top * (1 - ay) + bottom * ay;
}

/** Area-average resampling of a square 8-bit image to `out` × `out` floats. */
export function resample(image: Uint8Array, size: number, out: number): Float32Array {
  if (image.length !== size * size) throw new RangeError('image is not size × size');
  const result = new Float32Array(out * out);
  const ratio = size / out;
  if (Number.isInteger(ratio)) {
    const inverse = 1 / (ratio * ratio);
    for (let y = 0; y < out; y++) {
      for (let x = 0; x < out; x++) {
        let sum = 0;
        for (let dy = 0; dy < ratio; dy++) {
          const row = (y * ratio + dy) * size + x * ratio;
          for (let dx = 0; dx < ratio; dx++) sum += image[row + dx]!;
        }
        result[y * out + x] = sum * inverse;
      }
    }
    return result;
  }
  // Non-integer ratios (a camera ROI of any size): bilinear sampling, after a box pre-filter when shrinking.
  for (let y = 0; y < out; y++) {
    for (let x = 0; x < out; x++) {
      const sx = Math.min(size - 1, Math.max(0, (x + 0.5) * ratio - 0.5));
      const sy = Math.min(size - 1, Math.max(0, (y + 0.5) * ratio - 0.5));
      const reach = Math.max(0, Math.floor(ratio / 2));
      let sum = 0;
      let count = 0;
      for (let dy = -reach; dy <= reach; dy++) {
        for (let dx = -reach; dx <= reach; dx++) {
          sum += bilinear(image, size, size, sx + dx, sy + dy);
          count++;
        }
      }
      result[y * out + x] = sum / count;
    }
  }
  return result;
}

/**
 * Local mean and variance normalisation in place: each pixel minus its neighbourhood's mean, divided by its
 * standard deviation. Removes the light's gain and gradient and evens out contrast before the filters.
 */
export function normaliseContrast(image: Float32Array, size: number, radius: number): void {
  const stride = size + 1;
  const sum = new Float64Array(stride * stride);
  const sum2 = new Float64Array(stride * stride);
  for (let y = 0; y < size; y++) {
    let rowSum = 0;
    let rowSum2 = 0;
    for (let x = 0; x < size; x++) {
      const v = image[y * size + x]!;
      rowSum += v;
      rowSum2 += v * v;
      sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1]! + rowSum;
      sum2[(y + 1) * stride + x + 1] = sum2[y * stride + x + 1]! + rowSum2;
    }
  }
  // A floor on the deviation keeps flat, noise-only patches from being blown up to full contrast.
  let globalSum = 0;
  let globalSum2 = 0;
  for (let i = 0; i < image.length; i++) {
    globalSum += image[i]!;
    globalSum2 += image[i]! * image[i]!;
  }
  const globalMean = globalSum / image.length;
  const floor = 0.25 * Math.sqrt(Math.max(1e-6, globalSum2 / image.length - globalMean * globalMean)) + 1e-3;
  for (let y = 0; y < size; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(size, y + radius + 1);
    for (let x = 0; x < size; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(size, x + radius + 1);
      const area = (y1 - y0) * (x1 - x0);
      const s =
        sum[y1 * stride + x1]! - sum[y0 * stride + x1]! - sum[y1 * stride + x0]! + sum[y0 * stride + x0]!;
      const s2 =
        sum2[y1 * stride + x1]! - sum2[y0 * stride + x1]! - sum2[y1 * stride + x0]! + sum2[y0 * stride + x0]!;
      const mean = s / area;
      const deviation = Math.sqrt(Math.max(0, s2 / area - mean * mean));
      image[y * size + x] = (image[y * size + x]! - mean) / Math.max(deviation, floor);
    }
  }
}

export interface GaborBank {
  readonly radius: number;
  /** ORIENTATIONS kernels of (2·radius + 1)² taps each, zero-mean, line-detecting (negative on a dark line). */
  readonly kernels: Float32Array;
}

const bankCache = new Map<string, GaborBank>();

/** The even (real) Gabor filters at kπ/6, built once per parameter set. */
export function gaborBank(options: Readonly<FeatureOptions>): GaborBank {
  const key = `${options.wavelength_px}/${options.sigmaAcross_px}/${options.sigmaAlong_px}`;
  const cached = bankCache.get(key);
  if (cached) return cached;
  const radius = Math.ceil(2.5 * Math.max(options.sigmaAcross_px, options.sigmaAlong_px));
  const side = 2 * radius + 1;
  const kernels = new Float32Array(ORIENTATIONS * side * side);
  for (let k = 0; k < ORIENTATIONS; k++) {
    const theta = (k * Math.PI) / ORIENTATIONS;
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    const base = k * side * side;
    let mean = 0;
    for (let y = -radius; y <= radius; y++) {
      for (let x = -radius; x <= radius; x++) {
        // `along` follows the line direction theta; the cosine varies across it, so a line at theta matches.
        const along = x * cos + y * sin;
        const across = -x * sin + y * cos;
        const envelope = Math.exp(
          -(along * along) / (2 * options.sigmaAlong_px ** 2) -
            (across * across) / (2 * options.sigmaAcross_px ** 2),
        );
        const value = envelope * Math.cos((2 * Math.PI * across) / options.wavelength_px);
        kernels[base + (y + radius) * side + x + radius] = value;
        mean += value;
      }
    }
    // Zero DC: the response must not depend on the local brightness, only on the line structure.
    mean /= side * side;
    let energy = 0;
    for (let i = 0; i < side * side; i++) {
      kernels[base + i]! -= mean;
      energy += kernels[base + i]! ** 2;
    }
    const norm = 1 / Math.sqrt(energy);
    for (let i = 0; i < side * side; i++) kernels[base + i]! *= norm;
  }
  const bank = { radius, kernels };
  bankCache.set(key, bank);
  return bank;
}

/**
 * MFRAT-style line filters for fast RLOC at kπ/6: each kernel is a line of pixels through the centre,
 * sigmaAlong_px · 2.5 pixels either side, one pixel wide (bilinear weights), made zero-mean and unit-energy
 * like the Gabor bank, so a dark line through the cell gives the most negative sum.
 */
export function lineBank(options: Readonly<FeatureOptions>): GaborBank {
  const key = `line/${options.sigmaAlong_px}`;
  const cached = bankCache.get(key);
  if (cached) return cached;
  const radius = Math.ceil(2.5 * options.sigmaAlong_px);
  const side = 2 * radius + 1;
  const kernels = new Float32Array(ORIENTATIONS * side * side);
  for (let k = 0; k < ORIENTATIONS; k++) {
    const theta = (k * Math.PI) / ORIENTATIONS;
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    const base = k * side * side;
    for (let y = -radius; y <= radius; y++) {
      for (let x = -radius; x <= radius; x++) {
        const along = x * cos + y * sin;
        const across = -x * sin + y * cos;
        if (Math.abs(along) > radius) continue;
        kernels[base + (y + radius) * side + x + radius] = Math.max(0, 1 - Math.abs(across));
      }
    }
    let mean = 0;
    for (let i = 0; i < side * side; i++) mean += kernels[base + i]!;
    mean /= side * side;
    let energy = 0;
    for (let i = 0; i < side * side; i++) {
      kernels[base + i]! -= mean;
      energy += kernels[base + i]! ** 2;
    }
    const norm = 1 / Math.sqrt(energy);
    for (let i = 0; i < side * side; i++) kernels[base + i]! *= norm;
  }
  const bank = { radius, kernels };
  bankCache.set(key, bank);
  return bank;
}

/**
 * The six filter responses at each grid cell's centre: grid² × ORIENTATIONS values, cell-major. Computed only
 * at the cells (not the whole image), which is what makes the filter bank cheap.
 */
export function gaborResponses(
  image: Float32Array,
  size: number,
  grid: number,
  bank: GaborBank,
): Float32Array {
  const { radius, kernels } = bank;
  const side = 2 * radius + 1;
  // Zero padding: after normalisation the image's mean is 0, so the border adds no false lines.
  const padded = size + 2 * radius;
  const source = new Float32Array(padded * padded);
  for (let y = 0; y < size; y++)
    source.set(image.subarray(y * size, y * size + size), (y + radius) * padded + radius);
  const out = new Float32Array(grid * grid * ORIENTATIONS);
  const step = size / grid;
  for (let gy = 0; gy < grid; gy++) {
    const cy = Math.min(size - 1, Math.floor((gy + 0.5) * step));
    for (let gx = 0; gx < grid; gx++) {
      const cx = Math.min(size - 1, Math.floor((gx + 0.5) * step));
      for (let k = 0; k < ORIENTATIONS; k++) {
        const base = k * side * side;
        let acc = 0;
        for (let ky = 0; ky < side; ky++) {
          const row = (cy + ky) * padded + cx;
          const krow = base + ky * side;
          for (let kx = 0; kx < side; kx++) acc += kernels[krow + kx]! * source[row + kx]!;
        }
        out[(gy * grid + gx) * ORIENTATIONS + k] = acc;
      }
    }
  }
  return out;
}

/** The element at index length >> 1 of the values sorted (by selection: the same value a full sort gives). */
function median(values: Float32Array): number {
  if (values.length === 0) return 0;
  const a = Float32Array.from(values);
  const k = a.length >> 1;
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/** Codes the filter responses of a grid (see the module comment for the two kinds). */
export function encodeResponses(
  responses: Float32Array,
  grid: number,
  options: Readonly<FeatureOptions>,
): PalmCode {
  const planes = planesFor(options.kind);
  const bits = new Uint32Array(planes * grid);
  const mask = new Uint32Array(grid);
  const cells = grid * grid;
  const contrast = new Float32Array(cells);
  const winners = new Uint8Array(cells);
  for (let cell = 0; cell < cells; cell++) {
    let low = Infinity;
    let high = -Infinity;
    let winner = 0;
    for (let k = 0; k < ORIENTATIONS; k++) {
      const r = responses[cell * ORIENTATIONS + k]!;
      // A dark line gives the most negative response: that orientation wins.
      if (r < low) {
        low = r;
        winner = k;
      }
      if (r > high) high = r;
    }
    contrast[cell] = high - low;
    winners[cell] = winner;
  }
  const limit = options.maskFraction * median(contrast);
  for (let y = 0; y < grid; y++) {
    let maskWord = 0;
    for (let x = 0; x < grid; x++) {
      const cell = y * grid + x;
      if (contrast[cell]! >= limit) maskWord |= 1 << x;
      if (options.kind === 'competitive' || options.kind === 'rloc') {
        const code = COMPETITIVE_BITS[winners[cell]!]!;
        for (let p = 0; p < 3; p++) if ((code >> p) & 1) bits[p * grid + y]! |= 1 << x;
      } else if (options.kind === 'ordinal') {
        const half = ORIENTATIONS / 2;
        for (let k = 0; k < half; k++) {
          const r = responses[cell * ORIENTATIONS + k]! - responses[cell * ORIENTATIONS + k + half]!;
          if (r < 0) bits[k * grid + y]! |= 1 << x;
        }
      } else {
        for (let k = 0; k < ORIENTATIONS; k++) {
          if (responses[cell * ORIENTATIONS + k]! < 0) bits[k * grid + y]! |= 1 << x;
        }
      }
    }
    mask[y] = options.kind === 'competitive' || options.kind === 'rloc' ? maskWord : allCells(grid);
  }
  return { kind: options.kind, grid, planes, bits, mask };
}

function allCells(grid: number): number {
  return grid === 32 ? 0xffffffff : (1 << grid) - 1;
}

/**
 * The unprotected feature of one capture: the six filter responses at every grid cell. It lives only in
 * memory, long enough to be encoded and protected; nothing in this package stores or prints it.
 */
export interface PalmFeatures {
  readonly options: Readonly<FeatureOptions>;
  readonly grid: number;
  /** grid² × ORIENTATIONS responses, cell-major. */
  readonly responses: Float32Array;
}

/** A probe's guess at how its ROI differs from the enrolled one: a rotation and a shift in grid cells. */
export interface Alignment {
  rotation_deg: number;
  dx_cells: number;
  dy_cells: number;
  /** The probe's ROI scale relative to the enrolled one's (1: same; 1.05: the palm looks 5 % larger). */
  scale?: number;
}

export const NO_ALIGNMENT: Readonly<Alignment> = { rotation_deg: 0, dx_cells: 0, dy_cells: 0 };

/** ROI (size × size grey levels) -> filter responses on the code grid. */
export function extractFeatures(
  roi: Uint8Array,
  size: number,
  options: Readonly<FeatureOptions> = DEFAULT_FEATURE_OPTIONS,
): PalmFeatures {
  if (options.grid > 32 || options.grid < 8 || options.grid % 2 !== 0) {
    throw new RangeError('code grid must be an even number of cells in 8..32');
  }
  const image = resample(roi, size, options.workingSize);
  normaliseContrast(image, options.workingSize, options.normaliseRadius_px);
  const bank = options.kind === 'rloc' ? lineBank(options) : gaborBank(options);
  const responses = gaborResponses(image, options.workingSize, options.grid, bank);
  if (options.smooth_cells) smoothResponses(responses, options.grid, options.smooth_cells);
  return { options, grid: options.grid, responses };
}

/** Separable Gaussian smoothing of each orientation's map in place (cell-major layout; edges clamped). */
export function smoothResponses(responses: Float32Array, grid: number, sigma_cells: number): void {
  const radius = Math.ceil(2.5 * sigma_cells);
  const kernel = new Float32Array(2 * radius + 1);
  let total = 0;
  for (let i = -radius; i <= radius; i++)
    total += kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma_cells ** 2));
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= total;
  const scratch = new Float32Array(responses.length);
  // Each output sums its taps in order, one accumulator per orientation (ORIENTATIONS is 6).
  const pass = (from: Float32Array, to: Float32Array, stepX: number, stepY: number) => {
    for (let y = 0; y < grid; y++) {
      for (let x = 0; x < grid; x++) {
        let a0 = 0,
          a1 = 0,
          a2 = 0,
          a3 = 0,
          a4 = 0,
          a5 = 0;
        for (let i = -radius; i <= radius; i++) {
          const xx = Math.min(grid - 1, Math.max(0, x + i * stepX));
          const yy = Math.min(grid - 1, Math.max(0, y + i * stepY));
          const w = kernel[i + radius]!;
          const at = (yy * grid + xx) * ORIENTATIONS;
          a0 += w * from[at]!;
          a1 += w * from[at + 1]!;
          a2 += w * from[at + 2]!;
          a3 += w * from[at + 3]!;
          a4 += w * from[at + 4]!;
          a5 += w * from[at + 5]!;
        }
        const cell = (y * grid + x) * ORIENTATIONS;
        to[cell] = a0;
        to[cell + 1] = a1;
        to[cell + 2] = a2;
        to[cell + 3] = a3;
        to[cell + 4] = a4;
        to[cell + 5] = a5;
      }
    }
  };
  pass(responses, scratch, 1, 0);
  pass(scratch, responses, 0, 1);
}

export interface AlignedResponses {
  responses: Float32Array;
  /** 1 where the aligned cell falls inside the captured ROI. */
  valid: Uint8Array;
}

/**
 * Resamples the response maps as if the ROI had been rotated and shifted: each cell takes the bilinear
 * interpolation of the cells around its source position, and the orientation channels are rotated with it
 * (interpolating between the two neighbouring filters). Much cheaper than filtering a rotated image again,
 * and as accurate on the benchmark.
 */
export function alignResponses(features: PalmFeatures, alignment: Readonly<Alignment>): AlignedResponses {
  const { grid, responses } = features;
  const valid = new Uint8Array(grid * grid);
  const scale = alignment.scale ?? 1;
  if (alignment.rotation_deg === 0 && alignment.dx_cells === 0 && alignment.dy_cells === 0 && scale === 1) {
    valid.fill(1);
    return { responses, valid };
  }
  const angle = (alignment.rotation_deg * Math.PI) / 180;
  const cos = Math.cos(angle) * scale;
  const sin = Math.sin(angle) * scale;
  const half = grid / 2;
  const channelShift = alignment.rotation_deg / (180 / ORIENTATIONS);
  const out = new Float32Array(responses.length);
  const sample = new Float32Array(ORIENTATIONS);
  for (let y = 0; y < grid; y++) {
    for (let x = 0; x < grid; x++) {
      const u = x + 0.5 - half;
      const v = y + 0.5 - half;
      const sx = cos * u - sin * v + half - 0.5 + alignment.dx_cells;
      const sy = sin * u + cos * v + half - 0.5 + alignment.dy_cells;
      if (sx < -0.5 || sy < -0.5 || sx > grid - 0.5 || sy > grid - 0.5) continue;
      valid[y * grid + x] = 1;
      const x0 = Math.max(0, Math.min(grid - 2, Math.floor(sx)));
      const y0 = Math.max(0, Math.min(grid - 2, Math.floor(sy)));
      const fx = Math.min(1, Math.max(0, sx - x0));
      const fy = Math.min(1, Math.max(0, sy - y0));
      const c00 = (y0 * grid + x0) * ORIENTATIONS;
      const c01 = c00 + ORIENTATIONS;
      const c10 = c00 + grid * ORIENTATIONS;
      const c11 = c10 + ORIENTATIONS;
      for (let k = 0; k < ORIENTATIONS; k++) {
        sample[k] =
          (responses[c00 + k]! * (1 - fx) + responses[c01 + k]! * fx) * (1 - fy) +
          (responses[c10 + k]! * (1 - fx) + responses[c11 + k]! * fx) * fy;
      }
      const cell = (y * grid + x) * ORIENTATIONS;
      for (let k = 0; k < ORIENTATIONS; k++) {
        const source = k + channelShift;
        const floor = Math.floor(source);
        const weight = source - floor;
        const k0 = ((floor % ORIENTATIONS) + ORIENTATIONS) % ORIENTATIONS;
        const k1 = (k0 + 1) % ORIENTATIONS;
        out[cell + k] = sample[k0]! * (1 - weight) + sample[k1]! * weight;
      }
    }
  }
  return { responses: out, valid };
}

function clearInvalid(code: PalmCode, valid: Uint8Array): PalmCode {
  const { grid } = code;
  for (let y = 0; y < grid; y++) {
    for (let x = 0; x < grid; x++) if (!valid[y * grid + x]) code.mask[y]! &= ~(1 << x);
  }
  return code;
}

/**
 * The full code of a capture, optionally as seen under an alignment, optionally from responses smoothed
 * across cells (`smoothResponses`) after the alignment.
 */
export function encodeCode(
  features: PalmFeatures,
  alignment: Readonly<Alignment> = NO_ALIGNMENT,
  smooth_cells = 0,
): PalmCode {
  const aligned = alignResponses(features, alignment);
  let responses = aligned.responses;
  if (smooth_cells > 0) {
    responses = Float32Array.from(responses);
    smoothResponses(responses, features.grid, smooth_cells);
  }
  return clearInvalid(encodeResponses(responses, features.grid, features.options), aligned.valid);
}

/**
 * The sharp code and the smoothed one (`smooth_cells` > 0) of one alignment, the responses aligned once:
 * the same codes as encodeCode without and with the smoothing.
 */
export function encodeCodes(
  features: PalmFeatures,
  alignment: Readonly<Alignment>,
  smooth_cells: number,
): { sharp: PalmCode; smooth: PalmCode } {
  if (!(smooth_cells > 0)) throw new RangeError('smoothing must be positive');
  const aligned = alignResponses(features, alignment);
  const sharp = clearInvalid(
    encodeResponses(aligned.responses, features.grid, features.options),
    aligned.valid,
  );
  const responses = Float32Array.from(aligned.responses);
  smoothResponses(responses, features.grid, smooth_cells);
  const smooth = clearInvalid(encodeResponses(responses, features.grid, features.options), aligned.valid);
  return { sharp, smooth };
}

/** ROI -> full code, no alignment: what enrolment stores (once protected). */
export function extractCode(
  roi: Uint8Array,
  size: number,
  options: Readonly<FeatureOptions> = DEFAULT_FEATURE_OPTIONS,
): PalmCode {
  return encodeCode(extractFeatures(roi, size, options));
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Shifts a row word by dx columns (positive: content moves to higher columns), zeros shifted in. */
function shiftRow(word: number, dx: number, full: number): number {
  if (dx === 0) return word;
  return (dx > 0 ? word << dx : word >>> -dx) & full;
}

/**
 * Masked, normalised Hamming distance between two codes, minimised over shifts of b by up to maxShift cells
 * in each direction: the fraction of disagreeing bits among the cells both codes can see. A pair whose
 * overlap is under a quarter of the grid counts as 1 (no evidence) at that shift.
 */
export function codeDistance(a: PalmCode, b: PalmCode, maxShift: number): number {
  return codeDistanceAround(a, b, 0, 0, maxShift).distance;
}

/**
 * codeDistance over the shifts within `radius` cells of (cx, cy) on each axis, and the shift that gives it
 * (the first of equals; (cx, cy) when no shift overlaps enough).
 */
export function codeDistanceAround(
  a: PalmCode,
  b: PalmCode,
  cx: number,
  cy: number,
  radius: number,
): { distance: number; dx: number; dy: number } {
  if (a.grid !== b.grid || a.planes !== b.planes) throw new RangeError('codes of different shapes');
  const { grid, planes } = a;
  const full = allCells(grid);
  const minimumOverlap = (grid * grid) / 4;
  let best = 1;
  let bestDx = cx;
  let bestDy = cy;
  for (let dx = cx - radius; dx <= cx + radius; dx++) {
    for (let dy = cy - radius; dy <= cy + radius; dy++) {
      let differing = 0;
      let overlap = 0;
      for (let y = Math.max(0, dy); y < Math.min(grid, grid + dy); y++) {
        const yb = y - dy;
        const m = a.mask[y]! & shiftRow(b.mask[yb]!, dx, full);
        if (m === 0) continue;
        overlap += popcount32(m);
        for (let p = 0; p < planes; p++) {
          differing += popcount32((a.bits[p * grid + y]! ^ shiftRow(b.bits[p * grid + yb]!, dx, full)) & m);
        }
      }
      if (overlap < minimumOverlap) continue;
      const distance = differing / (overlap * planes);
      if (distance < best) {
        best = distance;
        bestDx = dx;
        bestDy = dy;
      }
    }
  }
  return { distance: best, dx: bestDx, dy: bestDy };
}
