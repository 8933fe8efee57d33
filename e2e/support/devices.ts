import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

import {
  DEVICE_HEADER,
  framesDigest,
  scanChallengeMessage,
  type DevicePublicKey,
  type ScanChallenge,
  type ScanPurpose,
} from '@hasta/contracts/devices';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

import { stepUpByApi } from './step-up';

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
