import { describe, expect, it } from 'vitest';

import {
  fromBase64Url,
  generateDeviceKeyPair,
  memoryDeviceStore,
  publicKeyJwk,
  signMessage,
  verifyMessage,
} from './device-key';

describe('device key', () => {
  it('makes a P-256 key pair whose private half cannot be exported', async () => {
    const keyPair = await generateDeviceKeyPair();
    expect(keyPair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', keyPair.privateKey)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('pkcs8', keyPair.privateKey)).rejects.toThrow();
    expect(keyPair.privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
  });

  it('gives only the public coordinates as a JWK', async () => {
    const jwk = await publicKeyJwk(await generateDeviceKeyPair());
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(jwk.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(jwk.y).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('signs as raw r||s base64url, checkable with the exported public key only', async () => {
    const keyPair = await generateDeviceKeyPair();
    const signature = await signMessage(keyPair.privateKey, 'scan ✓');
    expect(signature).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromBase64Url(signature)).toHaveLength(64);
    const imported = await crypto.subtle.importKey(
      'jwk',
      await publicKeyJwk(keyPair),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    expect(await verifyMessage(imported, 'scan ✓', signature)).toBe(true);
    expect(await verifyMessage(imported, 'scan ✗', signature)).toBe(false);
    const other = await generateDeviceKeyPair();
    expect(await verifyMessage(other.publicKey, 'scan ✓', signature)).toBe(false);
  });

  it('keeps each slot apart in the store and forgets a removed one', async () => {
    const store = memoryDeviceStore();
    const keyPair = await generateDeviceKeyPair();
    const stored = {
      device: { id: 'd1', kind: 'terminal' as const, name: 'Counter 1' },
      token: 't1',
      keyPair,
      pairedAt: new Date(0).toISOString(),
    };
    await store.write('terminal', stored);
    expect(await store.read('terminal')).toBe(stored);
    expect(await store.read('kiosk')).toBeNull();
    expect(await store.read('personal:someone')).toBeNull();
    await store.remove('terminal');
    expect(await store.read('terminal')).toBeNull();
  });
});
