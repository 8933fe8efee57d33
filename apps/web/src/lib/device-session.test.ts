import { framesDigest, scanChallengeMessage } from '@hasta/contracts/devices';
import type { ScanChallenge } from '@hasta/contracts/devices';
import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import { ApiError } from './api-error';
import { memoryDeviceStore, verifyMessage } from './device-key';
import {
  browserDeviceName,
  isDeviceGone,
  normalisePairingCode,
  pairThisBrowser,
  signedScan,
  thisBrowserDevice,
  withBrowserDevice,
} from './device-session';
import type { PairAnswer } from './devices-api';

const answerFor = (kind: 'terminal' | 'kiosk' | 'personal', token: string): PairAnswer => ({
  success: true,
  message: messages.devicePaired,
  device_token: token,
  device: {
    id: `device-${token}`,
    kind,
    name: 'Counter 1',
    store_id: null,
    store_name: null,
    kiosk_id: null,
    kiosk_name: null,
    owner_user_id: 'owner',
    owner_username: null,
    created_at: new Date(0).toISOString(),
    last_seen_at: null,
    revoked_at: null,
    payment_count: 0,
    enrolment_count: 0,
  },
});

describe('pairing codes', () => {
  it('reads a code as typed: spaces, dashes and case do not matter', () => {
    expect(normalisePairingCode(' abcd-ef23 ')).toBe('ABCDEF23');
    expect(normalisePairingCode('ABCDEF2')).toBeNull();
    expect(normalisePairingCode('ABCDEF234')).toBeNull();
    expect(normalisePairingCode('ABCD EF2!')).toBeNull();
  });
});

describe('pairing this browser', () => {
  it('sends only a public key with the code, and keeps the token with the key pair', async () => {
    const store = memoryDeviceStore();
    const sent: unknown[] = [];
    const stored = await pairThisBrowser('terminal', 'ABCDEF23', store, (request) => {
      sent.push(request);
      return Promise.resolve(answerFor('terminal', 'tok-1'));
    });
    expect(sent).toEqual([
      { code: 'ABCDEF23', publicKey: expect.objectContaining({ kty: 'EC', crv: 'P-256' }) },
    ]);
    expect(JSON.stringify(sent)).not.toContain('"d"');
    expect(stored.token).toBe('tok-1');
    expect(stored.keyPair.privateKey.extractable).toBe(false);
    expect(await store.read('terminal')).toBe(stored);
  });

  it('makes a personal device once, then reuses it', async () => {
    const store = memoryDeviceStore();
    let calls = 0;
    const register = () => {
      calls += 1;
      return Promise.resolve(answerFor('personal', `tok-${calls}`));
    };
    const first = await thisBrowserDevice('personal:u1', 'personal', 'Chrome on Linux', store, register);
    const again = await thisBrowserDevice('personal:u1', 'personal', 'Chrome on Linux', store, register);
    expect(again).toBe(first);
    expect(calls).toBe(1);
    // Another person on this browser gets a device of their own.
    const other = await thisBrowserDevice('personal:u2', 'personal', 'Chrome on Linux', store, register);
    expect(other.token).toBe('tok-2');
  });
});

describe('signing a scan', () => {
  const frames = ['AAAA', 'BBBB', 'CCCC'];

  it('signs the challenge, the purpose, the amount, the receiver and the frames', async () => {
    const stored = await pairThisBrowser('terminal', 'ABCDEF23', memoryDeviceStore(), () =>
      Promise.resolve(answerFor('terminal', 'tok-1')),
    );
    const challenge: ScanChallenge = {
      nonce: 'bm9uY2U',
      purpose: 'pay',
      amount: '250.00',
      receiver: 'store:s1',
      expires_at: new Date(60_000).toISOString(),
    };
    const asked: unknown[] = [];
    const signed = await signedScan(stored, { purpose: 'pay', amount: 250 }, frames, (token, request) => {
      asked.push({ token, request });
      return Promise.resolve(challenge);
    });
    expect(asked).toEqual([{ token: 'tok-1', request: { purpose: 'pay', amount: 250 } }]);
    expect(signed.headers).toEqual({ 'x-hasta-device': 'tok-1' });
    expect(signed.fields.challenge).toBe('bm9uY2U');

    const message = (overrides: Partial<Parameters<typeof scanChallengeMessage>[0]>, signedFrames = frames) =>
      framesDigest(signedFrames).then((framesSha256) =>
        scanChallengeMessage({ ...challenge, framesSha256, ...overrides }),
      );
    const verify = async (text: string) =>
      verifyMessage(stored.keyPair.publicKey, text, signed.fields.signature);
    expect(await verify(await message({}))).toBe(true);
    expect(await verify(await message({}, ['AAAA', 'BBBB', 'DDDD']))).toBe(false);
    expect(await verify(await message({ amount: '2500.00' }))).toBe(false);
    expect(await verify(await message({ receiver: 'store:s2' }))).toBe(false);
    expect(await verify(await message({ nonce: 'b3RoZXI' }))).toBe(false);
  });
});

describe('a device the server forgot', () => {
  it('is recognised by the catalogue messages the server answers', () => {
    expect(isDeviceGone(new ApiError(401, 'UNAUTHORIZED', messages.deviceRevoked))).toBe(true);
    expect(isDeviceGone(new ApiError(401, 'UNAUTHORIZED', messages.deviceRequired))).toBe(true);
    expect(isDeviceGone(new ApiError(400, 'BAD_REQUEST', messages.scanChallengeExpired))).toBe(false);
    expect(isDeviceGone(new Error(messages.deviceRevoked))).toBe(false);
  });
});

describe('browser names', () => {
  it('names the browser and its system', () => {
    expect(
      browserDeviceName(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(
      browserDeviceName(
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(browserDeviceName('curl/8')).toBe('Browser');
  });
});

describe('a browser device revoked elsewhere', () => {
  it('is forgotten and made again once, then the work runs with the new one', async () => {
    const store = memoryDeviceStore();
    let made = 0;
    const register = () => {
      made += 1;
      return Promise.resolve(answerFor('personal', `tok-${made}`));
    };
    await thisBrowserDevice('personal:u1', 'personal', 'Chrome', store, register);
    const seen: string[] = [];
    const target = { slot: 'personal:u1' as const, kind: 'personal' as const, name: 'Chrome' };
    // The first device is revoked: the server refuses its token.
    const result = await withBrowserDevice(
      target,
      (stored) => {
        seen.push(stored.token);
        if (stored.token === 'tok-1') {
          return Promise.reject(new ApiError(401, 'UNAUTHORIZED', messages.deviceRevoked));
        }
        return Promise.resolve('paid');
      },
      store,
      register,
    );
    expect(result).toBe('paid');
    expect(seen).toEqual(['tok-1', 'tok-2']);
    expect((await store.read('personal:u1'))?.token).toBe('tok-2');
  });

  it('passes any other refusal on without forgetting the device', async () => {
    const store = memoryDeviceStore();
    const register = () => Promise.resolve(answerFor('personal', 'tok-1'));
    const target = { slot: 'personal:u1' as const, kind: 'personal' as const, name: 'Chrome' };
    const refusal = new ApiError(403, 'FORBIDDEN', messages.scanChallengeInvalid);
    await expect(withBrowserDevice(target, () => Promise.reject(refusal), store, register)).rejects.toBe(
      refusal,
    );
    expect((await store.read('personal:u1'))?.token).toBe('tok-1');
  });
});
