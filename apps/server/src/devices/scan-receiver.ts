import { DEVICE_PURPOSES, type ScanPurpose } from '@hasta/contracts/devices';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { findStore } from '../merchant/merchant-repository';
import type { Device } from './device-repository';

/**
 * Whether this device may scan for this purpose with this session beside it, and who the scan is for (the
 * challenge's receiver, signed by the device and compared again when the scan comes):
 * - pay (a terminal): the terminal's store, "store:<id>"; a session beside it must be the store's owner's;
 * - receive (a person's own browser): the signed-in person, "user:<id>", who must own the device;
 * - enrol (a kiosk, or a person's own browser): the signed-in caller, "user:<id>" (a person's own browser
 *   only for its owner; a kiosk for whoever signed in on it).
 */
export async function scanReceiver(
  db: Kysely<Schema>,
  device: Device,
  purpose: ScanPurpose,
  sessionUserId: string | undefined,
): Promise<string> {
  if (!DEVICE_PURPOSES[device.kind].includes(purpose)) throw AppError.of('FORBIDDEN', 'deviceNotAllowed');
  if (purpose === 'pay') {
    const store = device.merchantId === null ? undefined : await findStore(db, device.merchantId);
    if (!store) throw AppError.of('FORBIDDEN', 'deviceNotAllowed');
    if (sessionUserId !== undefined && sessionUserId !== store.ownerUserId)
      throw AppError.of('FORBIDDEN', 'deviceNotAllowed');
    return `store:${store.id}`;
  }
  if (sessionUserId === undefined) throw AppError.of('UNAUTHORIZED', 'unauthorized');
  if (device.kind === 'personal' && sessionUserId !== device.ownerUserId)
    throw AppError.of('FORBIDDEN', 'deviceNotAllowed');
  return `user:${sessionUserId}`;
}
