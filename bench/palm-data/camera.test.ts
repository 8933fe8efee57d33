import { describe, expect, it } from 'vitest';

import {
  FRAME_SIDE,
  NUISANCE_LEVELS,
  captureHold,
  discKernel,
  drawHold,
  holdSeed,
  jpegLumaRoundTrip,
  jpegRoundTrip,
  lineKernel,
  nuisanceTable,
  type NuisanceLevel,
} from './camera';
import { createIdentity, renderSample } from '../../packages/palm/src/synthetic';
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
      const reference = jpegRoundTrip(frame, FRAME_SIDE, quality);
      const direct = jpegLumaRoundTrip(frame, FRAME_SIDE, quality);
      expect(meanAbsDiff(direct, reference), `quality ${quality}`).toBeLessThan(0.2);
      expect(Math.max(...direct.map((v, i) => Math.abs(v - reference[i]!)))).toBeLessThanOrEqual(2);
    }
    // And it is lossy: quality 40 moves the pixels by more than a grey level on average.
    expect(meanAbsDiff(jpegLumaRoundTrip(frame, FRAME_SIDE, 40), frame)).toBeGreaterThan(1);
  });
});
