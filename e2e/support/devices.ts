import { generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

import { DEVICE_HEADER, framesDigest, scanChallengeMessage } from '@hasta/contracts/devices';
import type { DevicePublicKey, ScanChallenge, ScanPurpose } from '@hasta/contracts/devices';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

import { stepUpByApi } from './step-up';

/**
 * A device as the browser tests hold one outside a page (issue 22): an ECDSA P-256 key pair (node:crypto here,
 * where a browser keeps a non-extractable WebCrypto key) and, once paired, its token. Every palm scan posted
 * through the API is signed with it, as the web app does.
 */
export class TestDevice {
  readonly #privateKey: KeyObject;
  readonly publicKey: DevicePublicKey;
  token = '';
  id = '';

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicKey = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
  }

  get headers(): Record<string, string> {
    return { [DEVICE_HEADER]: this.token };
  }

  /**
   * A challenge for one scan and the signature over `frames`: the body fields and the header to post with
   * the scan. `session` carries the person's cookie where the purpose needs it (enrol, receive).
   */
  async sign(
    session: APIRequestContext,
    request: { purpose: ScanPurpose; amount?: number },
    frames: readonly string[],
  ): Promise<{ headers: Record<string, string>; fields: { challenge: string; signature: string } }> {
    const response = await session.post('/Palm/challenge', { headers: this.headers, data: request });
    expect(response.status(), await response.text()).toBe(200);
    const challenge = (await response.json()) as ScanChallenge;
    const message = scanChallengeMessage({
      nonce: challenge.nonce,
      purpose: challenge.purpose,
      amount: challenge.amount,
      receiver: challenge.receiver,
      framesSha256: await framesDigest(frames),
    });
    const signature = sign('sha256', Buffer.from(message, 'utf8'), {
      key: this.#privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
    return { headers: this.headers, fields: { challenge: challenge.nonce, signature } };
  }
}

function keep(device: TestDevice, answer: unknown): TestDevice {
  const { device: paired, device_token: token } = answer as { device: { id: string }; device_token: string };
  device.id = paired.id;
  device.token = token;
  return device;
}

/**
 * The session's browser as the person's own device (POST /api/devices/this-browser), or the store owner's as
 * a terminal of their store: the session needs a live 'palm_enrol' step-up (stepUpByApi) first.
 */
export async function thisBrowserTestDevice(
  session: APIRequestContext,
  kind: 'personal' | 'terminal' = 'personal',
): Promise<TestDevice> {
  const device = new TestDevice();
  const response = await session.post('/api/devices/this-browser', {
    data: { kind, public_key: device.publicKey, name: `e2e ${kind}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return keep(device, await response.json());
}

/** A pairing code for a terminal of the owner's store (POST /api/devices/pairing-codes). */
export async function terminalPairingCode(owner: APIRequestContext, name = 'Counter 1'): Promise<string> {
  const response = await owner.post('/api/devices/pairing-codes', { data: { kind: 'terminal', name } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { code: string }).code;
}

/** The owner's devices as GET /api/devices lists them. */
export async function listDevices(
  session: APIRequestContext,
): Promise<
  Array<{ id: string; kind: string; name: string; revoked_at: string | null; payment_count: number }>
> {
  const response = await session.get('/api/devices');
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { devices: [] }).devices;
}

/** Revokes a device (POST /api/devices/:id/revoke) as its owner or an admin. */
export async function revokeDevice(session: APIRequestContext, id: string): Promise<void> {
  const response = await session.post(`/api/devices/${id}/revoke`);
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * A paired device for the browser tests' API calls that post a palm scan (issue 22), as the pages do it with
 * a WebCrypto key: here an ECDSA P-256 key of node:crypto, the device token, and the signing of a scan's
 * challenge over its frames.
 */
export interface ApiDevice {
  token: string;
  privateKey: KeyObject;
}

function newKeyPair(): { privateKey: KeyObject; publicKey: DevicePublicKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  return { privateKey, publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! } };
}

/**
 * The session's own browser made a device (POST /api/devices/this-browser) after the owner's step-up (a
 * code to `contact`): a person's own browser, or (`terminal`) a store owner's Accept Palm tab.
 */
export async function thisBrowserDeviceByApi(
  session: APIRequestContext,
  contact: string,
  kind: 'personal' | 'terminal' = 'personal',
): Promise<ApiDevice> {
  await stepUpByApi(session, contact);
  const { privateKey, publicKey } = newKeyPair();
  const paired = await session.post('/api/devices/this-browser', {
    data: { kind, public_key: publicKey, name: 'Test browser' },
  });
  expect(paired.status(), await paired.text()).toBe(200);
  return { token: ((await paired.json()) as { device_token: string }).device_token, privateKey };
}

/** A terminal of the session's store, paired with a code as /terminal does it. */
export async function terminalByApi(storeSession: APIRequestContext): Promise<ApiDevice> {
  const made = await storeSession.post('/api/devices/pairing-codes', {
    data: { kind: 'terminal', name: 'Till' },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { privateKey, publicKey } = newKeyPair();
  const paired = await storeSession.post('/api/devices/pair', {
    data: { code: ((await made.json()) as { code: string }).code, public_key: publicKey },
  });
  expect(paired.status(), await paired.text()).toBe(200);
  return { token: ((await paired.json()) as { device_token: string }).device_token, privateKey };
}

/**
 * POSTs a palm scan as the device: a challenge for `purpose` (and the body's amount), signed over the
 * frames, sent with the scan and the device header.
 */
export async function postSignedScan(
  session: APIRequestContext,
  device: ApiDevice,
  url: '/Palm/register' | '/Palm/authenticate' | '/api/transaction',
  data: { scan: { frames: string[]; source: 'camera' | 'demo' }; amount?: number } & Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const purpose: ScanPurpose =
    url === '/Palm/register' ? 'enrol' : url === '/api/transaction' ? 'pay' : 'receive';
  const asked = await session.post('/Palm/challenge', {
    headers: { [DEVICE_HEADER]: device.token },
    data: { purpose, ...(data.amount === undefined ? {} : { amount: data.amount }) },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const challenge = (await asked.json()) as ScanChallenge;
  const message = scanChallengeMessage({
    nonce: challenge.nonce,
    purpose: challenge.purpose,
    amount: challenge.amount,
    receiver: challenge.receiver,
    framesSha256: await framesDigest(data.scan.frames),
  });
  const signature = sign('sha256', Buffer.from(message, 'utf8'), {
    key: device.privateKey,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
  return session.post(url, {
    headers: { ...headers, [DEVICE_HEADER]: device.token },
    data: { ...data, challenge: challenge.nonce, signature },
  });
}
