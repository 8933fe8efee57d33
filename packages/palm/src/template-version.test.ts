import { describe, expect, it } from 'vitest';
import { extractFeatures } from './features';
import { parseTemplate, serializeTemplate, TemplateProtector, VERSION_1_PROTECTION } from './protect';
import { verifyDistance } from './search';
import { createIdentity, renderSample } from './synthetic';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 1) & 0xff);
const features = extractFeatures(renderSample(createIdentity(77, 1), 0, 'easy'), 128);

describe('template versions', () => {
  const current = new TemplateProtector(KEY);
  const version1 = new TemplateProtector(KEY, VERSION_1_PROTECTION);

  it('marks the version in header byte 10 (0 for version 1, as before it had a use) and reads it back', () => {
    const v2 = current.enrol(features);
    const v1 = version1.enrol(features);
    expect([current.version, version1.version]).toEqual([2, 1]);
    expect(serializeTemplate(v2)[10]).toBe(2);
    expect(serializeTemplate(v1)[10]).toBe(0);
    expect(parseTemplate(serializeTemplate(v2))).toEqual(v2);
    expect(parseTemplate(serializeTemplate(v1))).toEqual(v1);
    // The two versions hash different codes into the coarse prefix.
    expect(v2.words.slice(0, 32)).not.toEqual(v1.words.slice(0, 32));
    const unknown = serializeTemplate(v2);
    unknown[10] = 3;
    expect(() => parseTemplate(unknown)).toThrow('unsupported palm template header');
  });

  it('never compares a template with a probe of another version: the key ids differ and the search refuses', () => {
    expect(current.keyId).not.toEqual(version1.keyId);
    expect(() => verifyDistance(version1.enrol(features), current.probe(features))).toThrow();
    expect(() => verifyDistance(current.enrol(features), version1.probe(features))).toThrow();
    // Each version matches its own.
    expect(verifyDistance(version1.enrol(features), version1.probe(features))).toBe(0);
    expect(verifyDistance(current.enrol(features), current.probe(features))).toBe(0);
  });
});
