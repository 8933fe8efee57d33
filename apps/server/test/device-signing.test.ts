import { createHash, generateKeyPairSync, verify, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  framesDigest,
  pairDeviceRequestSchema,
  scanChallengeMessage,
  toBase64Url,
  utf8Bytes,
} from '@hasta/contracts/devices';

describe('the shared scan signing helpers (issue 22)', () => {
  it('digests the frames as posted, joined by newlines', async () => {
    const frames = ['QUJD', 'REVG', 'R0hJ'];
    expect(await framesDigest(frames)).toBe(createHash('sha256').update('QUJD\nREVG\nR0hJ').digest('hex'));
    expect(await framesDigest(['QUJD', 'REVG'])).not.toBe(await framesDigest(['QUJDREVG']));
  });

  it('writes the message with a fixed key order, whatever order the fields come in', () => {
    const message = scanChallengeMessage({
      framesSha256: 'ab',
      receiver: 'store:1',
      amount: '10.00',
      purpose: 'pay',
      nonce: 'n1',
    });
    expect(message).toBe(
      '{"v":"hasta-scan-challenge-1","nonce":"n1","purpose":"pay","amount":"10.00","receiver":"store:1","frames_sha256":"ab"}',
    );
    expect(
      scanChallengeMessage({
        nonce: 'n1',
        purpose: 'enrol',
        amount: null,
        receiver: null,
        framesSha256: 'ab',
      }),
    ).toContain('"amount":null,"receiver":null');
  });

  it('encodes base64url as Node does, for every length', () => {
    for (let length = 0; length < 70; length += 1) {
      const bytes = new Uint8Array(length).map((_, index) => (index * 37 + 11) % 256);
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  it('a WebCrypto ECDSA P-256 signature of the message verifies as the server checks it', async () => {
    const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    const message = scanChallengeMessage({
      nonce: 'n2',
      purpose: 'receive',
      amount: '1.50',
      receiver: 'user:2',
      framesSha256: await framesDigest(['QUJD']),
    });
    const signature = toBase64Url(
      new Uint8Array(
        await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, utf8Bytes(message)),
      ),
    );
    const jwk = await webcrypto.subtle.exportKey('jwk', keys.publicKey);
    const publicKey = { key: { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! }, format: 'jwk' as const };
    const check = (text: string) =>
      verify(
        'sha256',
        Buffer.from(text),
        { ...publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
    expect(check(message)).toBe(true);
    expect(check(message.replace('1.50', '9.50'))).toBe(false);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    expect(other.x).not.toBe(jwk.x);
  });

  it('reads a pairing code as typed: case, spaces and dashes aside', () => {
    const publicKey = { kty: 'EC', crv: 'P-256', x: 'a'.repeat(43), y: 'b'.repeat(43), ext: true };
    const parsed = pairDeviceRequestSchema.parse({ code: 'abcd-ef 23', public_key: publicKey });
    expect(parsed.code).toBe('ABCDEF23');
    expect(parsed.public_key).toEqual({ kty: 'EC', crv: 'P-256', x: 'a'.repeat(43), y: 'b'.repeat(43) });
    expect(pairDeviceRequestSchema.safeParse({ code: 'ABC', public_key: publicKey }).success).toBe(false);
  });
});
