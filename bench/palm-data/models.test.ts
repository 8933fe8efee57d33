import { describe, expect, it } from 'vitest';

import { modelA } from './model-a';
import { modelB } from './model-b';

const meanAbsDiff = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

/** The surface's nominal ROI [0, 1]² (the middle half of each axis), divided by its mean (tone aside). */
const roi = (surface: Float32Array, size: number): Float32Array => {
  const half = size / 2;
  const out = new Float32Array(half * half);
  for (let y = 0; y < half; y++) {
    for (let x = 0; x < half; x++) out[y * half + x] = surface[(y + half / 2) * size + x + half / 2]!;
  }
  const mean = out.reduce((sum, v) => sum + v, 0) / out.length;
  return out.map((v) => v / mean);
};

describe.each([modelA, modelB])('palm model $name', (model) => {
  const SIZE = 256;

  it('draws a surface of reflectances, decided by (seed, index, variant)', () => {
    const surface = model.identity(9, 4).surface(3, SIZE);
    expect(surface).toBeInstanceOf(Float32Array);
    expect(surface).toHaveLength(SIZE * SIZE);
    expect(Math.min(...surface)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...surface)).toBeLessThanOrEqual(1);
    expect(model.identity(9, 4).surface(3, SIZE)).toEqual(surface);
    expect(model.identity(9, 4).surface(4, SIZE)).not.toEqual(surface);
    expect(model.identity(10, 4).surface(3, SIZE)).not.toEqual(surface);
  });

  it('has dark lines on lighter skin in the ROI', () => {
    const surface = model.identity(9, 1).surface(0, SIZE);
    expect(surface.reduce((sum, v) => sum + v, 0) / surface.length).toBeGreaterThan(0.35);
    const values = [...roi(surface, SIZE)].sort((a, b) => a - b);
    const median = values[values.length >> 1]!;
    const darkest = values[Math.floor(values.length * 0.005)]!;
    // The creases: the darkest half percent is well below the skin.
    expect(darkest).toBeLessThan(0.8 * median);
  });

  it('differs more between two palms than between two looks of one palm, tone aside', () => {
    for (let i = 0; i < 4; i++) {
      const palm = model.identity(9, i);
      const other = model.identity(9, i + 10);
      const looks = roi(palm.surface(1, SIZE), SIZE);
      const again = roi(palm.surface(2, SIZE), SIZE);
      const within = meanAbsDiff(looks, again);
      const between = meanAbsDiff(looks, roi(other.surface(1, SIZE), SIZE));
      expect(within).toBeGreaterThan(0);
      expect(within, `palm ${i}`).toBeLessThan(0.6 * between);
    }
  });
});
