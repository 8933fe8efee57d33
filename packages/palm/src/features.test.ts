import { describe, expect, it } from 'vitest';
import {
  codeDistance,
  DEFAULT_FEATURE_OPTIONS,
  encodeResponses,
  extractCode,
  extractFeatures,
  gaborResponses,
  lineBank,
  ORIENTATIONS,
  type FeatureKind,
} from './features';
import { parseTemplate, serializeTemplate, TemplateProtector } from './protect';
import { createIdentity, renderSample } from './synthetic';

const SIZE = 128;
const KEY = Uint8Array.from({ length: 32 }, (_, i) => 3 * i + 1);
const identities = Array.from({ length: 4 }, (_, i) => createIdentity(9_101, i));
const sample = (identity: number, s: number) => renderSample(identities[identity]!, s, 'medium', SIZE);

describe('fast RLOC line filters', () => {
  it('are zero-mean with unit energy', () => {
    const { radius, kernels } = lineBank(DEFAULT_FEATURE_OPTIONS);
    const side = 2 * radius + 1;
    for (let k = 0; k < ORIENTATIONS; k++) {
      const kernel = kernels.subarray(k * side * side, (k + 1) * side * side);
      const sum = kernel.reduce((total, v) => total + v, 0);
      const energy = kernel.reduce((total, v) => total + v * v, 0);
      expect(Math.abs(sum)).toBeLessThan(1e-4);
      expect(energy).toBeCloseTo(1, 4);
    }
  });

  it('give the most negative sum along a dark line of their own orientation', () => {
    const size = 32;
    const bank = lineBank(DEFAULT_FEATURE_OPTIONS);
    for (let line = 0; line < ORIENTATIONS; line++) {
      const theta = (line * Math.PI) / ORIENTATIONS;
      const image = new Float32Array(size * size);
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          const across = -(x - 16) * Math.sin(theta) + (y - 16) * Math.cos(theta);
          image[y * size + x] = Math.abs(across) < 0.8 ? -1 : 0.05;
        }
      }
      // A 1-cell grid samples the image's centre, where the line passes.
      const centre = gaborResponses(image, size, 1, bank);
      let winner = 0;
      for (let k = 1; k < ORIENTATIONS; k++) if (centre[k]! < centre[winner]!) winner = k;
      expect(winner).toBe(line);
    }
  });
});

describe('Ordinal code', () => {
  it('sets bit k where the response at k·30° is below the orthogonal one at k·30° + 90°', () => {
    const grid = 8;
    const responses = new Float32Array(grid * grid * ORIENTATIONS);
    // Cell 0: 0° darker than 90°, 30° lighter than 120°, 60° darker than 150° -> bits 0 and 2.
    responses.set([-2, 1, -1, 0, -0.5, 0.5], 0);
    // Cell 1 (x = 1): the opposite -> bit 1 only.
    responses.set([2, -1, 1, 0, 0.5, -0.5], ORIENTATIONS);
    const code = encodeResponses(responses, grid, { ...DEFAULT_FEATURE_OPTIONS, kind: 'ordinal' });
    expect(code.planes).toBe(3);
    expect(code.bits[0 * grid]! & 0b11).toBe(0b01);
    expect(code.bits[1 * grid]! & 0b11).toBe(0b10);
    expect(code.bits[2 * grid]! & 0b11).toBe(0b01);
    expect(code.mask[0]).toBe(0xff);
  });
});

describe.each<FeatureKind>(['rloc', 'ordinal'])('%s feature', (kind) => {
  const options = { ...DEFAULT_FEATURE_OPTIONS, kind };

  it('separates genuine from impostor captures', () => {
    const code = (identity: number, s: number) => extractCode(sample(identity, s), SIZE, options);
    const genuine = [codeDistance(code(0, 0), code(0, 1), 2), codeDistance(code(1, 0), code(1, 1), 2)];
    const impostor = [codeDistance(code(0, 0), code(1, 0), 2), codeDistance(code(2, 0), code(3, 0), 2)];
    expect(Math.max(...genuine)).toBeLessThan(Math.min(...impostor));
  });

  it('is protected and survives the storage format with its kind', () => {
    const protector = new TemplateProtector(KEY);
    const template = protector.enrol(extractFeatures(sample(0, 0), SIZE, options));
    expect(template.kind).toBe(kind);
    expect(parseTemplate(serializeTemplate(template)).kind).toBe(kind);
  });
});
