import { describe, expect, it } from 'vitest';

import {
  FRAME_SIDE,
  NUISANCE_LEVELS,
  captureFrame,
  captureHold,
  discKernel,
  drawHold,
  holdSeed,
  captureSet,
  jpegLumaRoundTrip,
  lineKernel,
  nuisanceTable,
  type FrameParameters,
  type HoldParameters,
  type NuisanceLevel,
} from './camera';
import { createIdentity, renderSample } from '../../packages/palm/src/synthetic';
import { jpegRoundTrip } from '../palm-replay-variants';
import { modelA } from './model-a';

const meanAbsDiff = (a: Uint8Array, b: Uint8Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};
const mean = (a: Uint8Array): number => a.reduce((sum, v) => sum + v, 0) / a.length;

describe('captureHold', () => {
  const palm = modelA.identity(7, 3);

  it('is decided by its seed', () => {
    const first = captureHold(palm, 'medium', 42, 2);
    const again = captureHold(modelA.identity(7, 3), 'medium', 42, 2);
    expect(again).toEqual(first);
    expect(captureHold(palm, 'medium', 43, 2)[0]).not.toEqual(first[0]);
  });

  it('gives the asked number of 128 × 128 grey frames that use the grey range', () => {
    const frames = captureHold(palm, 'hard', 5, 3);
    expect(frames).toHaveLength(3);
    for (const frame of frames) {
      expect(frame).toBeInstanceOf(Uint8Array);
      expect(frame).toHaveLength(FRAME_SIDE * FRAME_SIDE);
      const low = Math.min(...frame);
      const high = Math.max(...frame);
      expect(high - low).toBeGreaterThan(40);
    }
    expect(captureHold(palm, 'easy', 5, 0)).toEqual([]);
  });

  it('gives frames of one hold closer to each other than to frames of another hold of the same palm', () => {
    for (const level of ['easy', 'medium', 'hard'] as const) {
      const a = captureHold(palm, level, holdSeed(1, 3, 0), 2);
      const b = captureHold(palm, level, holdSeed(1, 3, 1), 1);
      const within = meanAbsDiff(a[0]!, a[1]!);
      const between = Math.min(meanAbsDiff(a[0]!, b[0]!), meanAbsDiff(a[1]!, b[0]!));
      expect(within, level).toBeLessThan(between);
    }
  });

  it('darkens and brightens the frame with the hold’s gain and tone curve', () => {
    // The darkest and brightest holds among a few: their mean grey follows gain^gamma.
    const holds = Array.from({ length: 12 }, (_, i) => ({ seed: 100 + i, hold: drawHold('hard', 100 + i) }));
    holds.sort((x, y) => x.hold.gain - y.hold.gain);
    const dark = holds[0]!;
    const bright = holds[holds.length - 1]!;
    expect(dark.hold.gain).toBeLessThan(0.8);
    expect(bright.hold.gain).toBeGreaterThan(1.2);
    expect(mean(captureHold(palm, 'hard', bright.seed, 1)[0]!)).toBeGreaterThan(
      mean(captureHold(palm, 'hard', dark.seed, 1)[0]!) + 40,
    );
  });
});

describe('captureSet', () => {
  it('gives each palm its holds, each as captureHold with its hold seed', () => {
    const set = [
      ...captureSet(modelA, 'medium', { seed: 4, identities: 2, holds: 2, frames: 1, firstIdentity: 5 }),
    ];
    expect(set.map(({ identity, hold }) => [identity, hold])).toEqual([
      [5, 0],
      [5, 1],
      [6, 0],
      [6, 1],
    ]);
    expect(set[3]!.frames).toEqual(captureHold(modelA.identity(4, 6), 'medium', holdSeed(4, 6, 1), 1));
  });
});

describe('drawHold', () => {
  it('keeps every level’s pose, light and camera within its ranges, and spreads over them', () => {
    for (const level of ['easy', 'medium', 'hard'] as NuisanceLevel[]) {
      const p = NUISANCE_LEVELS[level];
      const holds = Array.from({ length: 400 }, (_, i) => drawHold(level, i));
      const within = (values: number[], [low, high]: readonly [number, number]) => {
        expect(Math.min(...values)).toBeGreaterThanOrEqual(low);
        expect(Math.max(...values)).toBeLessThanOrEqual(high);
        // Uniform draws: 400 of them reach the outer tenth of the range at both ends.
        expect(Math.min(...values)).toBeLessThan(low + 0.1 * (high - low));
        expect(Math.max(...values)).toBeGreaterThan(high - 0.1 * (high - low));
      };
      within(
        holds.map((h) => h.rotation_deg),
        p.rotation_deg,
      );
      within(
        holds.map((h) => h.translationX),
        p.translation,
      );
      within(
        holds.map((h) => h.translationY),
        p.translation,
      );
      within(
        holds.map((h) => h.scale - 1),
        p.scale,
      );
      within(
        holds.map((h) => h.tilt_deg),
        p.tilt_deg,
      );
      within(
        holds.map((h) => h.defocus_px),
        p.defocus_px,
      );
      within(
        holds.map((h) => h.gain),
        p.gain,
      );
      within(
        holds.map((h) => h.gamma),
        p.gamma,
      );
      within(
        holds.map((h) => h.gradient),
        p.gradient,
      );
      within(
        holds.map((h) => h.noise_grey),
        p.noise_grey,
      );
      expect(Math.min(...holds.map((h) => h.jpegQuality))).toBeGreaterThanOrEqual(p.jpeg_quality[0]);
      expect(Math.max(...holds.map((h) => h.jpegQuality))).toBeLessThanOrEqual(p.jpeg_quality[1]);
    }
    expect(NUISANCE_LEVELS.medium.rotation_deg).toEqual([-8, 8]);
    expect(NUISANCE_LEVELS.hard.tilt_deg).toEqual([0, 15]);
  });

  it('prints the levels as a table', () => {
    const table = nuisanceTable();
    expect(table).toContain('| parameter | easy | medium | hard |');
    expect(table).toContain('±15');
    expect(table).toContain('40 – 90');
  });
});

describe('blur kernels', () => {
  const sum = (taps: [number, number, number][]) => taps.reduce((s, [, , w]) => s + w, 0);
  it('are normalised, and a zero radius or length leaves the image alone', () => {
    expect(discKernel(0)).toEqual([[0, 0, 1]]);
    expect(lineKernel(0, 30)).toEqual([[0, 0, 1]]);
    expect(sum(discKernel(2.5))).toBeCloseTo(1, 6);
    expect(sum(lineKernel(4, 30))).toBeCloseTo(1, 6);
    // A horizontal line of 4 px reaches 2 px either side and no row but its own.
    const line = lineKernel(4, 0);
    expect(Math.max(...line.map(([dx]) => dx))).toBe(2);
    expect(new Set(line.map(([, dy]) => dy))).toEqual(new Set([0]));
  });
});

describe('jpegLumaRoundTrip', () => {
  it('does to a grey frame what a jpeg-js round trip does', () => {
    const frame = renderSample(createIdentity(3, 4), 1, 'hard');
    for (const quality of [40, 65, 90]) {
      const reference = jpegRoundTrip(frame, quality);
      const direct = jpegLumaRoundTrip(frame, FRAME_SIDE, quality);
      expect(meanAbsDiff(direct, reference), `quality ${quality}`).toBeLessThan(0.2);
      expect(Math.max(...direct.map((v, i) => Math.abs(v - reference[i]!)))).toBeLessThanOrEqual(2);
    }
    // And it is lossy: quality 40 moves the pixels by more than a grey level on average.
    expect(meanAbsDiff(jpegLumaRoundTrip(frame, FRAME_SIDE, 40), frame)).toBeGreaterThan(1);
  });
});

describe('captureFrame geometry', () => {
  // A still, sharp, evenly lit, noiseless hold: the frame is the surface's nominal ROI.
  const still: HoldParameters = {
    level: 'easy',
    variant: 1,
    rotation_deg: 0,
    translationX: 0,
    translationY: 0,
    scale: 1,
    tilt_deg: 0,
    tiltAxis_deg: 0,
    defocus_px: 0,
    gain: 1,
    gradient: 0,
    gradientAngle_deg: 0,
    gamma: 1,
    noise_grey: 0,
    jpegQuality: 100,
  };
  const steady: FrameParameters = {
    jitterX_px: 0,
    jitterY_px: 0,
    jitter_deg: 0,
    motion_px: 0,
    motionAngle_deg: 0,
  };
  const palm = modelA.identity(5, 5);
  const surface = palm.surface(still.variant, 512);
  // The surface's ROI [0, 1]² is its pixels 128..383; a frame pixel covers 2 × 2 of them.
  const expected = Uint8Array.from({ length: FRAME_SIDE * FRAME_SIDE }, (_, i) => {
    const x = 128 + 2 * (i % FRAME_SIDE);
    const y = 128 + 2 * Math.floor(i / FRAME_SIDE);
    const at = (dx: number, dy: number) => surface[(y + dy) * 512 + x + dx]!;
    return Math.round(((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1)) / 4) * 255);
  });

  it('shows the nominal ROI of the surface when the hold is still and plain', () => {
    expect(meanAbsDiff(captureFrame(surface, still, steady, 1), expected)).toBeLessThan(1);
  });

  it('moves the palm right and down with a positive translation, and grows it with the scale', () => {
    const moved = captureFrame(surface, { ...still, translationX: 0.125, translationY: 0.0625 }, steady, 1);
    // Frame pixel (x, y) now shows what (x − 16, y − 8) showed.
    let sum = 0;
    let count = 0;
    for (let y = 8; y < FRAME_SIDE; y++) {
      for (let x = 16; x < FRAME_SIDE; x++) {
        sum += Math.abs(moved[y * FRAME_SIDE + x]! - expected[(y - 8) * FRAME_SIDE + x - 16]!);
        count++;
      }
    }
    expect(sum / count).toBeLessThan(1);
    expect(meanAbsDiff(moved, expected)).toBeGreaterThan(3);
    const grown = captureFrame(surface, { ...still, scale: 2 }, steady, 1);
    // Twice the size about the centre: frame pixel 64 + 2k shows what pixel 64 + k showed.
    let grownSum = 0;
    for (let k = -30; k < 30; k++) {
      grownSum += Math.abs(grown[64 * FRAME_SIDE + 64 + 2 * k]! - expected[64 * FRAME_SIDE + 64 + k]!);
    }
    expect(grownSum / 60).toBeLessThan(6);
  });

  it('foreshortens a tilted palm: lines keep their place at the centre and move at the edges', () => {
    const tilted = captureFrame(surface, { ...still, tilt_deg: 15, tiltAxis_deg: 0 }, steady, 1);
    const rows = (image: Uint8Array, y0: number, y1: number) => {
      const part = image.slice(y0 * FRAME_SIDE, y1 * FRAME_SIDE);
      const base = expected.slice(y0 * FRAME_SIDE, y1 * FRAME_SIDE);
      return meanAbsDiff(part, base);
    };
    expect(rows(tilted, 60, 68)).toBeLessThan(2);
    expect(rows(tilted, 0, 16) + rows(tilted, 112, 128)).toBeGreaterThan(2 * rows(tilted, 60, 68) + 2);
  });
});
