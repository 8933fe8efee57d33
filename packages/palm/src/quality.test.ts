import { describe, expect, it } from 'vitest';

import {
  MIN_MEAN_GREY,
  MIN_PALM_SHARE,
  MIN_SHARPNESS,
  MIN_WIDTH_TO_LENGTH,
  estimateNoise,
  framePose,
  frameQuality,
  type FramePose,
} from './quality';
import { createIdentity, renderSample, type SyntheticSetting } from './synthetic';
import { gaussianBlurred } from './frame-blur';

const SIDE = 128;
const SEED = 20261123;

function palm(identity: number, sample: number, setting: SyntheticSetting = 'medium'): Uint8Array {
  return renderSample(createIdentity(SEED, identity), sample, setting, SIDE);
}

/** Separable Gaussian blur of a grey frame (edges clamped), rounded back to bytes. */
const blurred = (frame: Uint8Array, sigma_px: number): Uint8Array => gaussianBlurred(frame, SIDE, sigma_px);

/** Deterministic zero-mean noise of standard deviation about `sigma` grey levels. */
function noisy(frame: Uint8Array, sigma: number, seed = 1): Uint8Array {
  let state = seed;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return Uint8Array.from(frame, (v) => {
    let sum = 0;
    for (let i = 0; i < 12; i += 1) sum += uniform();
    return Math.min(255, Math.max(0, Math.round(v + (sum - 6) * sigma)));
  });
}

const scaled = (frame: Uint8Array, factor: number, offset = 0) =>
  Uint8Array.from(frame, (v) => Math.min(255, Math.max(0, Math.round(offset + v * factor))));

const meanOf = (frame: Uint8Array) => frame.reduce((a, b) => a + b, 0) / frame.length;

describe('frame quality: the picture alone', () => {
  it('passes synthetic medium and easy palms (what the demo and the tests send)', () => {
    for (let identity = 0; identity < 24; identity += 1) {
      for (const setting of ['medium', 'easy'] as const) {
        const quality = frameQuality(palm(identity, identity % 5, setting), SIDE);
        expect(quality.issues, `${setting} identity ${identity}`).toEqual([]);
        expect(quality.passes).toBe(true);
        expect(quality.score).toBeGreaterThanOrEqual(0.5);
        expect(quality.score).toBeLessThanOrEqual(1);
      }
    }
  });

  it('refuses a blurred frame (Gaussian σ 3 px), with or without sensor noise, and says so', () => {
    for (let identity = 0; identity < 8; identity += 1) {
      const original = palm(identity, 0);
      const before = frameQuality(original, SIDE);
      for (const frame of [blurred(original, 3), noisy(blurred(original, 3), 8, identity + 1)]) {
        const after = frameQuality(frame, SIDE);
        expect(after.passes).toBe(false);
        expect(after.issues).toEqual(['blurry']);
        expect(after.sharpness).toBeLessThan(MIN_SHARPNESS);
        expect(after.score).toBeLessThan(before.score);
        expect(after.score).toBeLessThan(0.5);
      }
    }
  });

  it('does not take sensor noise for sharpness: a sharp frame with noise added stays sharp, its noise measured', () => {
    const sharp = palm(3, 1, 'easy');
    const withNoise = noisy(sharp, 10);
    expect(estimateNoise(withNoise, SIDE) - estimateNoise(sharp, SIDE)).toBeGreaterThan(7);
    const quality = frameQuality(withNoise, SIDE);
    expect(quality.passes).toBe(true);
    expect(Math.abs(quality.sharpness - frameQuality(sharp, SIDE).sharpness)).toBeLessThan(0.1);
  });

  it('refuses a dark frame (mean under about 40) and a washed-out one, each with its reason', () => {
    const original = palm(5, 2);
    const before = frameQuality(original, SIDE);
    const dark = scaled(original, 35 / meanOf(original));
    const darkQuality = frameQuality(dark, SIDE);
    expect(darkQuality.mean).toBeLessThan(MIN_MEAN_GREY);
    expect(darkQuality.passes).toBe(false);
    expect(darkQuality.issues[0]).toBe('dark');
    expect(darkQuality.score).toBeLessThan(before.score);

    // Haze: everything pushed towards white, little contrast left.
    const washed = Uint8Array.from(original, (v) => Math.round(255 - (255 - v) * 0.2));
    const washedQuality = frameQuality(washed, SIDE);
    expect(washedQuality.issues[0]).toBe('bright');
    expect(washedQuality.score).toBeLessThan(before.score);
    // Over-exposed: most of the palm clipped white.
    const clipped = frameQuality(scaled(original, 3), SIDE);
    expect(clipped.issues[0]).toBe('bright');
    expect(clipped.brightShare).toBeGreaterThan(0.45);
  });

  it('calls a flat frame flat, a plain dark one dark, and checks its input', () => {
    expect(frameQuality(new Uint8Array(SIDE * SIDE).fill(120), SIDE).issues).toContain('flat');
    expect(frameQuality(new Uint8Array(SIDE * SIDE).fill(120), SIDE).issues[0]).toBe('flat');
    expect(frameQuality(new Uint8Array(SIDE * SIDE).fill(10), SIDE).issues[0]).toBe('dark');
    expect(() => frameQuality(new Uint8Array(100), SIDE)).toThrow(RangeError);
  });
});

/** A right hand's landmarks (MediaPipe indices) in a 640 × 480 frame, knuckles `width` px apart at (cx, cy). */
function rightHand(cx: number, cy: number, width: number, length = width * 1.25) {
  const points = Array.from({ length: 21 }, () => ({ x: cx / 640, y: cy / 480 }));
  const at = (x: number, y: number) => ({ x: x / 640, y: y / 480 });
  points[0] = at(cx, cy + length); // wrist
  points[5] = at(cx + width / 2, cy); // index knuckle
  points[9] = at(cx, cy); // middle knuckle
  points[13] = at(cx - width / 4, cy);
  points[17] = at(cx - width / 2, cy); // pinky knuckle
  return points;
}

describe('frame quality: the pose', () => {
  const frame = palm(2, 0);

  it('measures the palm square, its width for its length and its distance to the edge', () => {
    const pose = framePose(rightHand(320, 160, 150), 'right', 640, 480)!;
    expect(pose.palmShare).toBeCloseTo((1.1 * 150) / 480, 5);
    expect(pose.widthToLength).toBeCloseTo(0.8, 5);
    // The square spans x 237.5 – 402.5 and y 182.5 – 347.5 of 640 × 480: 132.5 px from the bottom.
    expect(pose.edgeMargin).toBeCloseTo(132.5 / 480, 5);
    expect(frameQuality(frame, SIDE, pose).passes).toBe(true);
    expect(framePose([], 'right', 640, 480)).toBeUndefined();
  });

  it('says a small palm is too far, a foreshortened one tilted, one off the picture at the edge', () => {
    const good: FramePose = { palmShare: 0.35, widthToLength: 0.8, edgeMargin: 0.1 };
    const base = frameQuality(frame, SIDE, good);
    const small = frameQuality(frame, SIDE, { ...good, palmShare: MIN_PALM_SHARE * 0.8 });
    const tilted = frameQuality(frame, SIDE, { ...good, widthToLength: MIN_WIDTH_TO_LENGTH * 0.8 });
    const edge = frameQuality(frame, SIDE, framePose(rightHand(40, 160, 150), 'right', 640, 480));
    expect(small.issues).toEqual(['small']);
    expect(tilted.issues).toEqual(['tilted']);
    expect(edge.issues).toEqual(['edge']);
    for (const worse of [small, tilted, edge]) expect(worse.score).toBeLessThan(base.score);
    // Light comes first: a dark frame of a far hand is told to find light before coming closer.
    const dark = frameQuality(scaled(frame, 30 / meanOf(frame)), SIDE, { ...good, palmShare: 0.1 });
    expect(dark.issues.slice(0, 2)).toEqual(['dark', 'small']);
  });
});
