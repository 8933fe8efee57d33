import { createHash, createHmac } from 'node:crypto';
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { codeDistance, extractCode, extractFeatures, popcount32 } from './features';
import {
  palmHash,
  parseTemplate,
  serializeTemplate,
  TemplateProtector,
  VERSION_1_PROTECTION,
} from './protect';
import {
  decide,
  decisionPolicy,
  galleryShapeOf,
  normalCdf,
  normalQuantile,
  PalmGallery,
  thresholdForFmr,
  verifyDistance,
  type SearchResult,
} from './search';
import { createIdentity, renderSample, syntheticPalm } from './synthetic';

const SEED = 7_001;
const SIZE = 128;
const KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);

const identities = Array.from({ length: 6 }, (_, i) => createIdentity(SEED, i));
const sample = (identity: number, s: number) => renderSample(identities[identity]!, s, 'medium', SIZE);
const features = (identity: number, s: number) => extractFeatures(sample(identity, s), SIZE);

/** SHA-256 in hex, by Node's own crypto: the reference the engine's hashes are checked against. */
const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('SHA-256 and HMAC', () => {
  it('match the FIPS 180-2 and RFC 4231 vectors', () => {
    expect(hex(sha256(Uint8Array.from([0x61, 0x62, 0x63])))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const key = new Uint8Array(20).fill(0x0b);
    const data = Uint8Array.from('Hi There', (c) => c.charCodeAt(0));
    expect(hex(hmac(sha256, key, data))).toBe(
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    );
  });

  it('agree with node:crypto across block boundaries and for keys longer than a block', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1_000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(hex(sha256(bytes))).toBe(nodeSha256(bytes));
      for (const key of [KEY, new Uint8Array(100).fill(0xaa)]) {
        expect(hex(hmac(sha256, key, bytes))).toBe(createHmac('sha256', key).update(bytes).digest('hex'));
      }
    }
  });
});

describe('synthetic palms', () => {
  it('are deterministic by seed, identity and sample, and differ otherwise', () => {
    const a = syntheticPalm({ seed: SEED, identity: 1, sample: 2, setting: 'medium' });
    expect(nodeSha256(a)).toBe(nodeSha256(sample(1, 2)));
    expect(a).toHaveLength(SIZE * SIZE);
    expect(nodeSha256(sample(1, 3))).not.toBe(nodeSha256(a));
    expect(nodeSha256(sample(2, 2))).not.toBe(nodeSha256(a));
  });

  it('look like a palm: mid-grey with lines, neither flat nor clipped', () => {
    const roi = sample(0, 0);
    const mean = roi.reduce((sum, v) => sum + v, 0) / roi.length;
    const variance = roi.reduce((sum, v) => sum + (v - mean) ** 2, 0) / roi.length;
    expect(mean).toBeGreaterThan(40);
    expect(mean).toBeLessThan(230);
    expect(Math.sqrt(variance)).toBeGreaterThan(6);
  });

  it('refuses sizes out of range', () => {
    expect(() => renderSample(identities[0]!, 0, 'medium', 8)).toThrow(RangeError);
  });
});

describe('Competitive Code', () => {
  it('puts two captures of one palm closer than captures of two palms', () => {
    const genuine = codeDistance(extractCode(sample(0, 0), SIZE), extractCode(sample(0, 1), SIZE), 2);
    const impostor = codeDistance(extractCode(sample(0, 0), SIZE), extractCode(sample(1, 0), SIZE), 2);
    expect(genuine).toBeLessThan(0.3);
    expect(impostor).toBeGreaterThan(0.35);
  });

  it('counts bits like a reference popcount', () => {
    for (const x of [0, 1, 0xffffffff, 0x80000000, 0x12345678, 0xdeadbeef]) {
      expect(popcount32(x)).toBe(
        x
          .toString(2)
          .split('')
          .filter((bit) => bit === '1').length,
      );
    }
  });
});

describe('template protection (Index-of-Max)', () => {
  const protector = new TemplateProtector(KEY);
  const other = new TemplateProtector(OTHER_KEY);

  it('is deterministic for one key and keeps genuine pairs apart from impostors', () => {
    const enrolled = protector.enrol(features(0, 0));
    expect(hex(serializeTemplate(protector.enrol(features(0, 0))))).toBe(hex(serializeTemplate(enrolled)));
    const genuine = verifyDistance(enrolled, protector.probe(features(0, 1)));
    const impostor = verifyDistance(enrolled, protector.probe(features(1, 1)));
    expect(genuine).toBeLessThan(thresholdForFmr(1e-4));
    expect(impostor).toBeGreaterThan(thresholdForFmr(1e-4));
  });

  it('names its key by HMAC-SHA-256 and makes the templates stored before (pinned palm hashes)', () => {
    // Templates stored before version 2 are version 1: the server keeps a protector of that version beside
    // the current one, and it must name its key and make those templates exactly as before.
    const version1 = new TemplateProtector(KEY, VERSION_1_PROTECTION);
    const otherVersion1 = new TemplateProtector(OTHER_KEY, VERSION_1_PROTECTION);
    expect(hex(version1.keyId)).toBe(
      createHmac('sha256', KEY).update('hasta/palm/key-id/v1').digest('hex').slice(0, 16),
    );
    expect(hex(version1.keyId)).toBe('baeb07ce9db4119b');
    expect(hex(otherVersion1.keyId)).toBe('a737ef753920482d');
    // The current version's key id is another HMAC of the same key.
    expect(hex(protector.keyId)).toBe(
      createHmac('sha256', KEY).update('hasta/palm/key-id/v1/templates-v2').digest('hex').slice(0, 16),
    );
    // Templates hold symbols drawn from an HMAC keystream: a change in it makes every stored template unmatchable.
    expect([0, 1, 2].map((i) => palmHash(version1.enrol(features(i, 0))))).toEqual([
      '8c0551fa3676630a8ca20c7f62d324a1816b2c42a321fa2456d033b2dd9d7876',
      '6d52f2eb1eada14d2c4a50db2433fcd3c4d07f6814225ff8c03b69aa601df3a8',
      '0b7bbb6c9ed2c3e29bd4a47e33a6def0ba0f17fd0ef148bd176d52ca7653c3ed',
    ]);
    expect(palmHash(otherVersion1.enrol(features(0, 0)))).toBe(
      'b01f914fa2f1e421b8ff65d5541663dbaa5e6d22c57094e425dd6398091fd72a',
    );
  });

  it('is unlinkable across keys: one palm under two keys looks like two palms', () => {
    const underKey = protector.enrol(features(2, 0));
    const underOther = other.enrol(features(2, 1));
    // Different keys are refused outright by the matcher…
    expect(() => verifyDistance(underKey, other.probe(features(2, 1)))).toThrow(/different keys/);
    // …and their symbols, compared directly, disagree as often as an impostor's.
    let differing = 0;
    const bits = underKey.words.length * 32;
    underKey.words.forEach((word, i) => {
      differing += popcount32(word ^ underOther.words[i]!);
    });
    const sameKey = protector.enrol(features(2, 1));
    let sameKeyDiffering = 0;
    underKey.words.forEach((word, i) => {
      sameKeyDiffering += popcount32(word ^ sameKey.words[i]!);
    });
    expect(differing / bits).toBeGreaterThan(0.4);
    expect(sameKeyDiffering).toBeLessThan(differing);
  });

  it('round-trips through its byte form and names itself by a digest', () => {
    const template = protector.enrol(features(3, 0));
    const bytes = serializeTemplate(template);
    const parsed = parseTemplate(bytes);
    expect(parsed.words).toEqual(template.words);
    expect(parsed.keyId).toEqual(template.keyId);
    expect(palmHash(template)).toBe(nodeSha256(bytes));
    const tampered = bytes.slice();
    tampered[0] = 0;
    expect(() => parseTemplate(tampered)).toThrow(RangeError);
    expect(() => parseTemplate(bytes.slice(0, bytes.length - 4))).toThrow(RangeError);
  });

  it('refuses a short key', () => {
    expect(() => new TemplateProtector(new Uint8Array(8))).toThrow(RangeError);
  });
});

describe('1:N search and the decision', () => {
  const protector = new TemplateProtector(KEY);
  const enrolled = identities.map((_, i) => protector.enrol(features(i, 0)));
  const gallery = new PalmGallery(galleryShapeOf(enrolled[0]!), 2);
  enrolled.forEach((template, i) => gallery.add(`palm-${i}`, template));

  it('finds each palm from another capture, with the runner-up another palm', () => {
    for (let i = 0; i < identities.length; i++) {
      const result = gallery.search(protector.probe(features(i, 5)), { candidates: 2 });
      expect(result.best?.id).toBe(`palm-${i}`);
      expect(result.second?.id).not.toBe(`palm-${i}`);
      expect(result.best!.distance).toBeLessThan(result.second!.distance);
    }
  });

  it('forgets a removed palm and refuses a duplicate id', () => {
    const small = new PalmGallery(galleryShapeOf(enrolled[0]!));
    small.add('a', enrolled[0]!);
    small.add('b', enrolled[1]!);
    expect(() => small.add('a', enrolled[2]!)).toThrow(RangeError);
    expect(small.remove('a')).toBe(true);
    expect(small.remove('a')).toBe(false);
    expect(small.size).toBe(1);
    expect(small.search(protector.probe(features(0, 3))).best?.id).toBe('b');
  });

  it('decides: agreement, threshold, margin and disagreeing frames', () => {
    const policy = { threshold: 0.55, margin: 0.02, minAgreeingFrames: 2 };
    const frame = (id: string, distance: number, second = 0.7): SearchResult => ({
      best: { id, distance },
      second: { id: 'other', distance: second },
      gallerySize: 10,
      candidates: 10,
    });
    expect(decide([], policy)).toEqual({ outcome: 'no-match', reason: 'no-frames' });
    expect(decide([frame('a', 0.45), frame('a', 0.47)], policy)).toMatchObject({
      outcome: 'match',
      id: 'a',
      distance: 0.45,
      agreeingFrames: 2,
    });
    expect(decide([frame('a', 0.45)], policy)).toMatchObject({ outcome: 'no-match' });
    expect(decide([frame('a', 0.6), frame('a', 0.6)], policy)).toEqual({
      outcome: 'no-match',
      reason: 'above-threshold',
    });
    expect(decide([frame('a', 0.45, 0.46), frame('a', 0.45, 0.46)], policy)).toEqual({
      outcome: 'no-match',
      reason: 'ambiguous',
    });
    expect(decide([frame('a', 0.45), frame('b', 0.45)], policy)).toEqual({
      outcome: 'no-match',
      reason: 'frames-disagree',
    });
  });

  it('sets a stricter threshold for a larger gallery (FPIR ≈ N × FMR)', () => {
    const small = decisionPolicy({ gallerySize: 10 });
    const large = decisionPolicy({ gallerySize: 1_000_000 });
    expect(large.threshold).toBeLessThan(small.threshold);
    expect(large.threshold).toBeCloseTo(thresholdForFmr(1e-9), 10);
  });

  it('inverts the normal distribution accurately', () => {
    for (const p of [1e-9, 1e-6, 1e-3, 0.1, 0.5, 0.9]) {
      expect(normalCdf(normalQuantile(p)) / p).toBeCloseTo(1, 5);
    }
    expect(normalQuantile(0.5)).toBeCloseTo(0, 8);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
  });
});
