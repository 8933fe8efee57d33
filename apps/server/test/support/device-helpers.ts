import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  DEVICE_HEADER,
  framesDigest,
  scanChallengeMessage,
  type DevicePublicKey,
  type ScanChallenge,
  type ScanPurpose,
} from '@hasta/contracts/devices';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { hashToken, newToken } from '../../src/auth/secrets';
import { findSession } from '../../src/auth/sessions';
import { insertDevice } from '../../src/devices/device-repository';
import { findStoreOfOwner } from '../../src/merchant/merchant-repository';
import { bearer } from './auth-helpers';

/**
 * A paired device as the tests hold it: its ECDSA P-256 key pair (a software signer from node:crypto, where
 * the browser keeps a non-extractable WebCrypto key) and, once paired, its device token and id.
 */
export class SoftwareDevice {
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

  /** The device header (and, when given, a person's session beside it). */
  headers(sessionToken?: string): Record<string, string> {
    return { [DEVICE_HEADER]: this.token, ...(sessionToken ? bearer(sessionToken) : {}) };
  }

  /** Signs a message as WebCrypto's ECDSA P-256/SHA-256 does (raw r||s), base64url. */
  signText(message: string): string {
    return sign('sha256', Buffer.from(message, 'utf8'), {
      key: this.#privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
  }

  /** The signature of a challenge over these frames, with the challenge's fields changed by `tamper`. */
  async signScan(
    challenge: ScanChallenge,
    frames: readonly string[],
    tamper: Partial<Pick<ScanChallenge, 'amount' | 'receiver' | 'purpose' | 'nonce'>> = {},
  ): Promise<string> {
    const fields = { ...challenge, ...tamper };
    return this.signText(
      scanChallengeMessage({
        nonce: fields.nonce,
        purpose: fields.purpose,
        amount: fields.amount,
        receiver: fields.receiver,
        framesSha256: await framesDigest(frames),
      }),
    );
  }
}

async function expectOk(response: LightMyRequestResponse, what: string): Promise<LightMyRequestResponse> {
  if (response.statusCode !== 200) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return response;
}

/** A pairing code made by a store's owner (a terminal) or an admin (a kiosk, `kioskId`). */
export async function createPairingCode(
  app: FastifyInstance,
  sessionToken: string,
  request: { kind: 'terminal'; name?: string } | { kind: 'kiosk'; name?: string; kioskId: string },
): Promise<string> {
  const payload =
    request.kind === 'kiosk'
      ? { kind: 'kiosk', name: request.name ?? 'Kiosk', kiosk_id: request.kioskId }
      : { kind: 'terminal', name: request.name ?? 'Till 1' };
  const response = await app.inject({
    method: 'POST',
    url: '/api/devices/pairing-codes',
    headers: bearer(sessionToken),
    payload,
  });
  return (await expectOk(response, 'pairing code')).json<{ code: string }>().code;
}

/** Pairs a new software device with a code, as /terminal and /kiosk do. */
export async function pairDevice(app: FastifyInstance, code: string): Promise<SoftwareDevice> {
  const device = new SoftwareDevice();
  const response = await app.inject({
    method: 'POST',
    url: '/api/devices/pair',
    payload: { code, public_key: device.publicKey },
  });
  const body = (await expectOk(response, 'pair')).json<{ device: { id: string }; device_token: string }>();
  device.token = body.device_token;
  device.id = body.device.id;
  return device;
}

/** A store's terminal paired the way the merchant dashboard's Terminals tab and /terminal do it. */
export async function pairedTerminal(app: FastifyInstance, ownerToken: string): Promise<SoftwareDevice> {
  return pairDevice(app, await createPairingCode(app, ownerToken, { kind: 'terminal' }));
}

/**
 * A person's own browser made a device (POST /api/devices/this-browser); the caller has done the session's
 * palm_enrol step-up first.
 */
export async function pairThisBrowser(
  app: FastifyInstance,
  sessionToken: string,
  kind: 'personal' | 'terminal' = 'personal',
): Promise<SoftwareDevice> {
  const device = new SoftwareDevice();
  const response = await app.inject({
    method: 'POST',
    url: '/api/devices/this-browser',
    headers: bearer(sessionToken),
    payload: { kind, public_key: device.publicKey, name: 'My phone' },
  });
  const body = (await expectOk(response, 'this-browser')).json<{
    device: { id: string };
    device_token: string;
  }>();
  device.token = body.device_token;
  device.id = body.device.id;
  return device;
}

/** POST /Palm/challenge as the device (with the person's session where the purpose needs one). */
export function askChallenge(
  app: FastifyInstance,
  device: SoftwareDevice,
  request: { purpose: ScanPurpose; amount?: number },
  sessionToken?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/Palm/challenge',
    headers: device.headers(sessionToken),
    payload: request,
  });
}

export async function challengeFor(
  app: FastifyInstance,
  device: SoftwareDevice,
  request: { purpose: ScanPurpose; amount?: number },
  sessionToken?: string,
): Promise<ScanChallenge> {
  return (await expectOk(await askChallenge(app, device, request, sessionToken), 'challenge')).json();
}

/** The extra body fields of a signed scan: a fresh challenge for `purpose`, signed over the frames. */
export async function signedScan(
  app: FastifyInstance,
  device: SoftwareDevice,
  request: { purpose: ScanPurpose; amount?: number },
  frames: readonly string[],
  sessionToken?: string,
): Promise<{ challenge: string; signature: string }> {
  const challenge = await challengeFor(app, device, request, sessionToken);
  return { challenge: challenge.nonce, signature: await device.signScan(challenge, frames) };
}

/** The calls that post a palm scan, and the purpose each one's challenge is for. */
const SCAN_PATHS: Record<string, ScanPurpose> = {
  '/Palm/register': 'enrol',
  '/Palm/authenticate': 'receive',
  '/api/transaction': 'pay',
};

/** Each app's devices made for its people by `injectScan`: a person's own browser, a store's terminal. */
const testDevices = new WeakMap<FastifyInstance, Map<string, SoftwareDevice>>();

/**
 * A device of this person made directly in the database, as pairing would make it (the pairing itself is
 * under test in device-attacks.test.ts): their own browser, or their store's terminal. Undefined for a
 * terminal of someone who owns no store.
 */
export async function testDeviceOf(
  app: FastifyInstance,
  userId: string,
  kind: 'personal' | 'terminal',
): Promise<SoftwareDevice | undefined> {
  let byUser = testDevices.get(app);
  if (!byUser) {
    byUser = new Map();
    testDevices.set(app, byUser);
  }
  const key = `${kind}:${userId}`;
  const known = byUser.get(key);
  if (known) return known;
  const db = app.database.db;
  const merchantId = kind === 'terminal' ? (await findStoreOfOwner(db, userId))?.id : null;
  if (merchantId === undefined) return undefined;
  const device = new SoftwareDevice();
  device.token = newToken();
  device.id = await insertDevice(db, {
    kind,
    name: kind === 'terminal' ? 'Test till' : 'Test phone',
    ownerUserId: userId,
    merchantId,
    kioskId: null,
    tokenHash: hashToken(device.token),
    publicKey: device.publicKey,
    createdAt: new Date(),
  });
  byUser.set(key, device);
  return device;
}

function sessionTokenOf(headers: InjectOptions['headers']): string | undefined {
  const authorization = headers?.authorization;
  if (typeof authorization === 'string') return /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  const cookie = headers?.cookie;
  if (typeof cookie === 'string') return /hasta_session=([^;]+)/.exec(cookie)?.[1];
  return undefined;
}

/**
 * `app.inject` as a paired device posts a palm scan (issue 22): for a call that posts a scan (POST
 * /Palm/register, /Palm/authenticate, /api/transaction) without a challenge of its own, the signed-in
 * caller's device (their own browser, or their store's terminal) asks a challenge for the call's purpose
 * and amount, signs it over the frames and sends it with the scan. Any other call, one with no session or
 * no device to take it, or one whose challenge is refused, goes as it is (and meets the refusal the server
 * gives it anyway). Tests about the signatures themselves post by hand (device-attacks.test.ts).
 */
export async function injectScan(
  app: FastifyInstance,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const url = typeof options.url === 'string' ? options.url : undefined;
  const purpose = url === undefined ? undefined : SCAN_PATHS[url];
  const payload = options.payload as
    { scan?: { frames?: unknown }; amount?: unknown; challenge?: unknown } | undefined;
  const frames = payload?.scan?.frames;
  const token = sessionTokenOf(options.headers);
  if (
    purpose === undefined ||
    options.method !== 'POST' ||
    !Array.isArray(frames) ||
    !frames.every((frame) => typeof frame === 'string') ||
    payload?.challenge !== undefined ||
    token === undefined
  )
    return app.inject(options);
  const session = await findSession(app.database.db, token);
  const device = session
    ? await testDeviceOf(app, session.user.id, purpose === 'pay' ? 'terminal' : 'personal')
    : undefined;
  if (!device) return app.inject(options);
  const amount = typeof payload?.amount === 'number' ? payload.amount : undefined;
  const asked = await app.inject({
    method: 'POST',
    url: '/Palm/challenge',
    headers: device.headers(token),
    payload: { purpose, ...(amount === undefined ? {} : { amount }) },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  if (asked.statusCode !== 200) return app.inject(options);
  const challenge = asked.json<ScanChallenge>();
  return app.inject({
    ...options,
    headers: { ...options.headers, ...device.headers() },
    payload: {
      ...payload,
      challenge: challenge.nonce,
      signature: await device.signScan(challenge, frames as string[]),
    },
  });
}
