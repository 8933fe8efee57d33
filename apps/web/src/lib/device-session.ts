import { PAIRING_CODE_LENGTH, framesDigest, scanChallengeMessage } from '@hasta/contracts/devices';
import type { ScanChallenge, ScanPurpose, SignedScanFields } from '@hasta/contracts/devices';
import { messages } from '@hasta/contracts/messages';

import { ApiError } from './api-error';
import { deviceStore, generateDeviceKeyPair, publicKeyJwk, signMessage } from './device-key';
import type { DeviceSlot, DeviceStore, StoredDevice } from './device-key';
import { deviceHeaders, pairDevice, registerThisBrowser, requestScanChallenge } from './devices-api';
import type { PairAnswer } from './devices-api';

/**
 * This browser as a device (issue 22): pairing it (a code, or a signed-in person's step-up), and signing each
 * palm scan: challenge -> sha256 of the frames -> the canonical message -> ECDSA signature -> base64url.
 */

/** A typed pairing code as the server reads it (spaces and dashes dropped, upper case), or null if malformed. */
export function normalisePairingCode(text: string): string | null {
  const code = text.replace(/[\s-]/g, '').toUpperCase();
  return code.length === PAIRING_CODE_LENGTH && /^[A-Z0-9]+$/.test(code) ? code : null;
}

async function keep(slot: DeviceSlot, keyPair: CryptoKeyPair, answer: PairAnswer, store: DeviceStore) {
  const stored: StoredDevice = {
    device: {
      id: answer.device.id,
      kind: answer.device.kind,
      name: answer.device.name,
      storeName: answer.device.store_name ?? answer.device.kiosk_name,
    },
    token: answer.device_token,
    keyPair,
    pairedAt: new Date().toISOString(),
  };
  await store.write(slot, stored);
  return stored;
}

/** Pairs this browser with a code: a new non-extractable key pair, its public half sent with the code. */
export async function pairThisBrowser(
  slot: DeviceSlot,
  code: string,
  store: DeviceStore = deviceStore(),
  pair: typeof pairDevice = pairDevice,
): Promise<StoredDevice> {
  const keyPair = await generateDeviceKeyPair();
  const answer = await pair({ code, publicKey: await publicKeyJwk(keyPair) });
  return keep(slot, keyPair, answer, store);
}

/**
 * The signed-in person's browser as their device (kind 'personal'), or the store owner's as a terminal of the
 * store ('terminal'): kept under `slot`, made on first use (the server asks for a live 'palm_enrol' step-up).
 */
export async function thisBrowserDevice(
  slot: DeviceSlot,
  kind: 'personal' | 'terminal',
  name: string,
  store: DeviceStore = deviceStore(),
  register: typeof registerThisBrowser = registerThisBrowser,
): Promise<StoredDevice> {
  const existing = await store.read(slot);
  if (existing !== null) return existing;
  const keyPair = await generateDeviceKeyPair();
  const answer = await register({ kind, publicKey: await publicKeyJwk(keyPair), name });
  return keep(slot, keyPair, answer, store);
}

/** Signs a scan's frames for a challenge: the fields posted with the scan. */
export async function signScan(
  stored: StoredDevice,
  challenge: ScanChallenge,
  frames: readonly string[],
): Promise<SignedScanFields> {
  const message = scanChallengeMessage({
    nonce: challenge.nonce,
    purpose: challenge.purpose,
    amount: challenge.amount,
    receiver: challenge.receiver,
    framesSha256: await framesDigest(frames),
  });
  return { challenge: challenge.nonce, signature: await signMessage(stored.keyPair.privateKey, message) };
}

/** What a scan's request carries from its device: the header with the token, and the signed fields. */
export interface SignedScan {
  headers: Record<string, string>;
  fields: SignedScanFields;
}

/** Asks a challenge for this scan and signs the frames: what POST /Palm/register, /authenticate... add. */
export async function signedScan(
  stored: StoredDevice,
  request: { purpose: ScanPurpose; amount?: number },
  frames: readonly string[],
  challengeFor: typeof requestScanChallenge = requestScanChallenge,
): Promise<SignedScan> {
  const challenge = await challengeFor(stored.token, request);
  return { headers: deviceHeaders(stored.token), fields: await signScan(stored, challenge, frames) };
}

/** The server no longer knows this device (revoked, or its pairing lost): its credentials are useless here. */
export function isDeviceGone(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.message === messages.deviceRevoked || error.message === messages.deviceRequired)
  );
}

/** A short name for this browser, as its owner will read it in their devices list ("Chrome on Android"). */
export function browserDeviceName(userAgent: string = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system === null ? browser : `${browser} on ${system}`;
}

/**
 * Runs `work` with this browser's device for `slot` (made on first use, see thisBrowserDevice). A device the
 * server no longer knows (revoked from the owner's devices list) is forgotten here and made again once: the
 * server then asks for a live step-up, whose refusal reaches the caller as any other.
 */
export async function withBrowserDevice<T>(
  target: { slot: DeviceSlot; kind: 'personal' | 'terminal'; name: string },
  work: (stored: StoredDevice) => Promise<T>,
  store: DeviceStore = deviceStore(),
  register: typeof registerThisBrowser = registerThisBrowser,
): Promise<T> {
  const device = () => thisBrowserDevice(target.slot, target.kind, target.name, store, register);
  try {
    return await work(await device());
  } catch (error) {
    if (!isDeviceGone(error)) throw error;
    await store.remove(target.slot);
    return work(await device());
  }
}
