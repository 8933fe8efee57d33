import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import {
  framesDigest,
  scanChallengeMessage,
  type DevicePublicKey,
  type ScanPurpose,
} from '@hasta/contracts/devices';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { AppError } from '../lib/app-error';
import { authenticateDevice } from './device-credential';
import type { DeviceDeps } from './device-deps';
import { lockLiveDevice, type Device } from './device-repository';
import { lockScanChallenge, markScanChallengeUsed } from './scan-challenge-repository';
import { scanReceiver } from './scan-receiver';

/** A raw P-256 signature is 64 bytes (r||s). */
const SIGNATURE_BYTES = 64;

/**
 * Checks a posted palm scan before anything reads its frames (issue 22): it must come from a live paired
 * device, with one of that device's challenges (unused, unexpired, for this purpose, this amount and this
 * receiver), signed by the device's key over the challenge and the sha256 of these very frames. The
 * challenge is then used: the same nonce passes again only for a retry of the same request (the same
 * Idempotency-Key and frames), which the payment's own idempotency answers as the same payment.
 * Answers the device, to be recorded with the payment or enrolment.
 */
export async function verifySignedScan(
  deps: DeviceDeps,
  input: {
    deviceToken: string | undefined;
    sessionUserId: string | undefined;
    purpose: ScanPurpose;
    /** The request's amount (payments), null for an enrolment. */
    amountPaise: bigint | null;
    challenge: string | undefined;
    signature: string | undefined;
    /** The scan's frames as posted (base64, not decoded). */
    frames: readonly string[];
    idempotencyKey: string | undefined;
  },
): Promise<Device> {
  if (!input.challenge || !input.signature) throw AppError.of('BAD_REQUEST', 'scanChallengeRequired');
  const device = await authenticateDevice(deps, input.deviceToken);
  const receiver = await scanReceiver(deps.db, device, input.purpose, input.sessionUserId);
  const framesSha256 = await framesDigest(input.frames);
  const { challenge, signature } = input;
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    // Read under a share lock: a revocation committing now waits for this scan's check, or this check for it.
    if (!(await lockLiveDevice(trx, device.id))) throw AppError.of('UNAUTHORIZED', 'deviceRevoked');
    const record = await lockScanChallenge(trx, challenge);
    const invalid = () => AppError.of('FORBIDDEN', 'scanChallengeInvalid');
    if (!record || record.deviceId !== device.id || record.purpose !== input.purpose) throw invalid();
    if (record.amountPaise !== input.amountPaise || record.receiver !== receiver) throw invalid();
    const message = scanChallengeMessage({
      nonce: record.nonce,
      purpose: record.purpose,
      amount: record.amountPaise === null ? null : paiseToRupeesText(record.amountPaise),
      receiver: record.receiver,
      framesSha256,
    });
    if (!signatureHolds(device.publicKey, message, signature)) throw invalid();
    if (record.usedAt !== null) {
      const retry =
        input.idempotencyKey !== undefined &&
        record.idempotencyKey === input.idempotencyKey &&
        record.framesSha256 === framesSha256;
      if (!retry) throw invalid();
      return;
    }
    if (record.expiresAt.getTime() <= now.getTime()) throw AppError.of('FORBIDDEN', 'scanChallengeExpired');
    await markScanChallengeUsed(trx, {
      nonce: record.nonce,
      usedAt: now,
      idempotencyKey: input.idempotencyKey ?? null,
      framesSha256,
    });
  });
  return device;
}

/** A device's public key as node:crypto reads it; an unreadable one throws (checked at pairing). */
export function devicePublicKeyObject(key: DevicePublicKey): KeyObject {
  return createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x, y: key.y }, format: 'jwk' });
}

function signatureHolds(key: DevicePublicKey, message: string, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== SIGNATURE_BYTES) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(message, 'utf8'),
      { key: devicePublicKeyObject(key), dsaEncoding: 'ieee-p1363' },
      bytes,
    );
  } catch {
    return false;
  }
}
