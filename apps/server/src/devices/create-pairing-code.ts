import { PAIRING_CODE_TTL_MS, type CreatePairingCodeRequest } from '@hasta/contracts/devices';
import { AppError } from '../lib/app-error';
import { findStoreOfOwner } from '../merchant/merchant-repository';
import type { DeviceCaller, DeviceDeps } from './device-deps';
import {
  countLivePairingCodes,
  insertPairingCode,
  kioskExists,
  pruneExpiredPairingCodes,
} from './device-repository';
import { newPairingCode, pairingCodeHash } from './pairing-code';

/** At most this many unused live codes per person: a code is made for a device about to be paired. */
export const LIVE_PAIRING_CODES_PER_CREATOR = 20;

/**
 * A pairing code (8 characters, single use, 10 minutes): a store's owner for a terminal of their store
 * (merchant dashboard, Terminals tab), an admin for a kiosk of the locator (admin dashboard, Devices tab).
 * Only its keyed hash is kept; the code is answered once.
 */
export async function createPairingCode(
  deps: DeviceDeps,
  input: { caller: DeviceCaller; request: CreatePairingCodeRequest },
): Promise<{ code: string; kind: 'terminal' | 'kiosk'; name: string; expiresAt: Date }> {
  const { caller, request } = input;
  let merchantId: string | null = null;
  let kioskId: string | null = null;
  if (request.kind === 'terminal') {
    const store = caller.role === 'merchant' ? await findStoreOfOwner(deps.db, caller.userId) : undefined;
    if (!store) throw AppError.of('FORBIDDEN', 'merchantOnly');
    merchantId = store.id;
  } else {
    if (caller.role !== 'admin') throw AppError.of('FORBIDDEN', 'forbidden');
    if (!(await kioskExists(deps.db, request.kiosk_id))) throw AppError.of('BAD_REQUEST', 'invalidRequest');
    kioskId = request.kiosk_id;
  }
  const now = deps.now();
  if ((await countLivePairingCodes(deps.db, caller.userId, now)) >= LIVE_PAIRING_CODES_PER_CREATOR)
    throw AppError.retryLater('tooManyAttempts', PAIRING_CODE_TTL_MS);
  await pruneExpiredPairingCodes(deps.db, now);
  const code = newPairingCode();
  const expiresAt = new Date(now.getTime() + PAIRING_CODE_TTL_MS);
  await insertPairingCode(deps.db, {
    codeHash: pairingCodeHash(deps.secret, code),
    kind: request.kind,
    name: request.name,
    createdBy: caller.userId,
    merchantId,
    kioskId,
    createdAt: now,
    expiresAt,
  });
  return { code, kind: request.kind, name: request.name, expiresAt };
}
