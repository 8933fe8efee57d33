/**
 * renderSample's output is a fixture for the server's demo frames and many palm tests: sharing its drawing
 * code with the benchmark's surface renderer (renderSurface) must not change a single byte of it.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { createIdentity, renderSample } from '../../packages/palm/src/synthetic';

describe('synthetic.ts renderSample', () => {
  it('draws the same bytes as before renderSurface shared its code (108 samples, three settings, three sizes)', () => {
    const hash = createHash('sha256');
    for (const setting of ['easy', 'medium', 'hard'] as const) {
      for (let id = 0; id < 12; id++) {
        const identity = createIdentity(20260 + (id % 3), id);
        const size = id === 5 ? 64 : id === 9 ? 200 : 128;
        for (const sample of [0, 1, 7]) hash.update(renderSample(identity, sample, setting, size));
      }
    }
    expect(hash.digest('hex')).toBe('2fbb2a39a6a6d000c585927bf6e72c4c7317fbfdb91cca488bb300e5ccece231');
  });
});
