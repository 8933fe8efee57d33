import { randomBytes } from 'node:crypto';
import { SCAN_CHALLENGE_TTL_MS, type ScanChallenge, type ScanPurpose } from '@hasta/contracts/devices';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { AppError } from '../lib/app-error';
import { authenticateDevice } from './device-credential';
import type { DeviceDeps } from './device-deps';
import { touchDevice } from './device-repository';
import {
  countLiveScanChallenges,
  insertScanChallenge,
  pruneScanChallenges,
} from './scan-challenge-repository';
import { scanReceiver } from './scan-receiver';

/** At most this many unused, unexpired challenges per device: a device scans one palm at a time. */
export const LIVE_CHALLENGES_PER_DEVICE = 20;

/**
 * Starts a scan (POST /Palm/challenge): a nonce bound to the device, the purpose, the amount (payments) and
 * the receiver, living SCAN_CHALLENGE_TTL_MS and used once. The device signs it with the scan's frames.
 */
export async function issueScanChallenge(
  deps: DeviceDeps,
  input: {
    deviceToken: string | undefined;
    /** The person signed in beside the device, if any. */
    sessionUserId: string | undefined;
    purpose: ScanPurpose;
    /** The payment's amount: required for 'pay' and 'receive', ignored for 'enrol'. */
    amountPaise: bigint | undefined;
  },
): Promise<ScanChallenge> {
  const device = await authenticateDevice(deps, input.deviceToken);
  const receiver = await scanReceiver(deps.db, device, input.purpose, input.sessionUserId);
  const amountPaise = input.purpose === 'enrol' ? null : (input.amountPaise ?? null);
  if (input.purpose !== 'enrol' && amountPaise === null) throw AppError.of('BAD_REQUEST', 'amountRequired');
  const now = deps.now();
  if ((await countLiveScanChallenges(deps.db, device.id, now)) >= LIVE_CHALLENGES_PER_DEVICE)
    throw AppError.retryLater('tooManyAttempts', SCAN_CHALLENGE_TTL_MS);
  const nonce = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SCAN_CHALLENGE_TTL_MS);
  await insertScanChallenge(deps.db, {
    nonce,
    deviceId: device.id,
    purpose: input.purpose,
    amountPaise,
    receiver,
    expiresAt,
    createdAt: now,
  });
  await touchDevice(deps.db, device.id, now);
  await pruneScanChallenges(deps.db, device.id, now);
  return {
    nonce,
    purpose: input.purpose,
    amount: amountPaise === null ? null : paiseToRupeesText(amountPaise),
    receiver,
    expires_at: expiresAt.toISOString(),
  };
}
