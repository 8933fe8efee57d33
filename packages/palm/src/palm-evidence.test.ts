import { describe, expect, it } from 'vitest';

import { MAX_LINE_SKEW, palmEvidence } from './palm-evidence';
import { frameQuality } from './quality';
import { createIdentity, renderSample, type SyntheticSetting } from './synthetic';
import { gaussianBlurred } from './frame-blur';

const SIDE = 128;
const SEED = 20261127;

/** Deterministic uniform numbers in [0, 1). */
function uniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A frame from a function of the pixel, rounded and clamped to grey levels. */
const drawn = (grey: (x: number, y: number) => number): Uint8Array => {
  const frame = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y += 1)
    for (let x = 0; x < SIDE; x += 1)
      frame[y * SIDE + x] = Math.min(255, Math.max(0, Math.round(grey(x, y))));
  return frame;
};

/** Zero-mean noise of standard deviation about `sigma` (sum of 12 uniforms). */
function normal(next: () => number, sigma: number): number {
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += next();
  return (sum - 6) * sigma;
}

/** Chromium's fake camera cut to the guide box: two flat tones (its green ground, its disc), sector open at `angle`. */
const testPattern = (angle: number, noise = 0, seed = 1) => {
  const next = uniforms(seed);
  return drawn((x, y) => {
    const inside = Math.hypot(x - 64, y - 64) < 52 && Math.atan2(y - 64, x - 64) + Math.PI > angle;
    return (inside ? 174 : 79) + normal(next, noise);
  });
};

/** Random noise blurred to a texture of grain `sigma_px`, stretched to a palm's contrast (about 25 grey). */
function texture(seed: number, sigma_px: number): Uint8Array {
  const next = uniforms(seed);
  const raw = drawn(() => 128 + normal(next, 60));
  const smooth = gaussianBlurred(raw, SIDE, sigma_px);
  const spread = 60 / (2 * Math.sqrt(Math.PI) * sigma_px);
  return drawn((x, y) => 128 + ((smooth[y * SIDE + x]! - 128) * 25) / spread + normal(next, 3));
}

describe('palmEvidence', () => {
  it('takes every synthetic palm the quality gate takes, at every setting', () => {
    for (const setting of ['easy', 'medium', 'hard'] as SyntheticSetting[]) {
      let checked = 0;
      for (let identity = 0; identity < 12; identity += 1) {
        const palm = createIdentity(SEED, identity);
        for (let sample = 0; sample < 3; sample += 1) {
          const frame = renderSample(palm, sample, setting, SIDE);
          if (!frameQuality(frame, SIDE).passes) continue;
          checked += 1;
          const evidence = palmEvidence(frame, SIDE);
          expect(evidence.issues, `${setting} ${identity}/${sample}`).toEqual([]);
          expect(evidence.lineSkew).toBeLessThan(MAX_LINE_SKEW);
        }
      }
      expect(checked).toBeGreaterThan(30);
    }
  });

  it('refuses the fake camera’s test pattern, clean or with sensor noise, though the quality gate takes it', () => {
    for (const angle of [0.5, 2, 4]) {
      const clean = testPattern(angle);
      expect(frameQuality(clean, SIDE).passes).toBe(true);
      expect(palmEvidence(clean, SIDE).issues).toContain('tones');
      const noisy = testPattern(angle, 4, Math.round(angle * 10));
      expect(frameQuality(noisy, SIDE).passes).toBe(true);
      expect(palmEvidence(noisy, SIDE)).toMatchObject({ palm: false, issues: ['lines'] });
    }
  });

  it('refuses a screen of one colour, stripes, a checkerboard and light text on a dark ground', () => {
    const frames: [string, Uint8Array][] = [
      ['one colour', drawn(() => 140)],
      ['stripes', drawn((x) => (x % 12 < 3 ? 60 : 180))],
      ['checkerboard', drawn((x, y) => (((x >> 4) + (y >> 4)) % 2 === 1 ? 200 : 60))],
      ['light text', drawn((x, y) => (y > 50 && y < 70 && (x % 7 < 2 || y % 9 < 2) ? 230 : 100))],
    ];
    for (const [name, frame] of frames) {
      const evidence = palmEvidence(frame, SIDE);
      expect(evidence.palm, name).toBe(false);
      expect(evidence.issues, name).toContain('tones');
    }
  });

  it('refuses random noise (all noise, no picture) and noise blurred into a texture (no dark lines)', () => {
    const next = uniforms(7);
    const white = drawn(() => 128 + normal(next, 40));
    expect(palmEvidence(white, SIDE).issues).toEqual(expect.arrayContaining(['texture', 'lines']));
    for (const sigma_px of [1, 1.5, 2, 3]) {
      for (let seed = 1; seed <= 5; seed += 1) {
        const frame = texture(seed * 31 + sigma_px, sigma_px);
        expect(palmEvidence(frame, SIDE).issues, `σ ${sigma_px} seed ${seed}`).toEqual(['lines']);
      }
    }
  });

  it('checks the frame’s shape', () => {
    expect(() => palmEvidence(new Uint8Array(100), SIDE)).toThrow(RangeError);
  });
});
