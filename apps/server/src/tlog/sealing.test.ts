import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATA_KEY_BYTES, NONCE_BYTES, open, seal } from './sealing';

describe('seal and open (AES-256-GCM)', () => {
  const key = randomBytes(DATA_KEY_BYTES);
  const plaintext = Buffer.from('{"record":1}');

  it('opens what it sealed only with the same key and context, and never when a byte changed', () => {
    const sealed = seal(key, plaintext, 'context a');
    expect(open(key, sealed, 'context a')?.toString()).toBe('{"record":1}');
    expect(open(key, sealed, 'context b')).toBeNull();
    expect(open(randomBytes(DATA_KEY_BYTES), sealed, 'context a')).toBeNull();
    for (const at of [0, NONCE_BYTES, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[at]! ^= 1;
      expect(open(key, altered, 'context a'), `byte ${at}`).toBeNull();
    }
  });

  it('carries a given nonce in front, and refuses one of the wrong length', () => {
    const nonce = randomBytes(NONCE_BYTES);
    const sealed = seal(key, plaintext, 'c', nonce);
    expect(sealed.subarray(0, NONCE_BYTES).equals(nonce)).toBe(true);
    expect(open(key, sealed, 'c')?.toString()).toBe('{"record":1}');
    // Fresh nonces by default: the same plaintext seals differently each time.
    expect(seal(key, plaintext, 'c').equals(seal(key, plaintext, 'c'))).toBe(false);
    expect(() => seal(key, plaintext, 'c', randomBytes(NONCE_BYTES - 1))).toThrow(RangeError);
  });
});
