import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  bytesToHex,
  equalBytes,
  hexToBytes,
  isWellFormedText,
} from './encoding';

describe('encodings', () => {
  it('writes and reads base64 exactly as Node does (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        expect(bytesToBase64(bytes)).toBe(text);
        expect(base64ToBytes(text)).toEqual(bytes);
      }),
    );
  });

  it('accepts only the canonical base64 spelling', () => {
    for (const text of ['QQ', 'QQ=', 'QR==', 'Q===', 'QQ==\n', ' QQ==', 'QQ==QQ==', 'Q-_=', 'QUJD\u00e9']) {
      expect(base64ToBytes(text), text).toBeNull();
    }
    expect(base64ToBytes('')).toEqual(new Uint8Array(0));
  });

  it('reads only lower-case hex of even length', () => {
    expect(hexToBytes('00ff10')).toEqual(Uint8Array.of(0, 255, 16));
    expect(bytesToHex(Uint8Array.of(0, 255, 16))).toBe('00ff10');
    for (const text of ['0', 'FF', '0x00', 'zz']) expect(hexToBytes(text), text).toBeNull();
  });

  it('compares bytes and spots unpaired surrogates', () => {
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(equalBytes(Uint8Array.of(1), Uint8Array.of(1, 0))).toBe(false);
    expect(isWellFormedText('a\ud83d\ude00b')).toBe(true);
    expect(isWellFormedText('a\ud83d')).toBe(false);
    expect(isWellFormedText('\ude00a')).toBe(false);
  });
});
