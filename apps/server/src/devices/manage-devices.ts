import type { Device as DeviceAnswer } from '@hasta/contracts/devices';
import type { merchantPaymentSchema } from '@hasta/contracts/merchant';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { z } from 'zod';
import { listTransfers, partiesSeenBy, statusOf } from '../ledger/queries';
import { AppError } from '../lib/app-error';
import { authenticateDevice } from './device-credential';
import type { DeviceCaller, DeviceDeps } from './device-deps';
import {
  deviceUse,
  devicePaymentIds,
  findDevice,
  listDevices,
  revokeDevice,
  type Device,
} from './device-repository';
import { deviceView } from './device-view';

/** The admin's list shows this many devices, newest first. */
export const DEVICE_LIST_LIMIT = 500;
/** A device's payments list shows this many, newest first. */
export const DEVICE_PAYMENTS_LIMIT = 50;

export type DevicePayment = z.infer<typeof merchantPaymentSchema>;

/** A device the caller may manage: an admin any, anyone else those they own (others are 404). */
async function managedDevice(
  deps: Pick<DeviceDeps, 'db'>,
  caller: DeviceCaller,
  id: string,
): Promise<Device> {
  const device = await findDevice(deps.db, id);
  if (!device || (caller.role !== 'admin' && device.ownerUserId !== caller.userId))
    throw AppError.of('NOT_FOUND', 'deviceNotFound');
  return device;
}

/** The devices the caller manages (GET /api/devices): every one for an admin, else those they own. */
export async function listManagedDevices(
  deps: Pick<DeviceDeps, 'db'>,
  caller: DeviceCaller,
): Promise<DeviceAnswer[]> {
  const devices = await listDevices(
    deps.db,
    caller.role === 'admin' ? { all: true } : { ownerUserId: caller.userId },
    DEVICE_LIST_LIMIT,
  );
  return devices.map((device) => deviceView(device, device, caller.role === 'admin'));
}

/** The calling device itself (GET /api/devices/me). */
export async function thisDevice(
  deps: Pick<DeviceDeps, 'db'>,
  token: string | undefined,
): Promise<DeviceAnswer> {
  const device = await authenticateDevice(deps, token);
  return deviceView(device, await deviceUse(deps.db, device.id));
}

/** Revokes a device at once (its token, its key, its open challenges); answers it as it now is. */
export async function revokeManagedDevice(
  deps: DeviceDeps,
  input: { caller: DeviceCaller; deviceId: string },
): Promise<DeviceAnswer> {
  const device = await managedDevice(deps, input.caller, input.deviceId);
  await revokeDevice(deps.db, device.id, deps.now());
  const revoked = await findDevice(deps.db, device.id);
  if (!revoked) throw AppError.of('NOT_FOUND', 'deviceNotFound');
  return deviceView(revoked, await deviceUse(deps.db, device.id), input.caller.role === 'admin');
}

async function paymentsOf(deps: Pick<DeviceDeps, 'db'>, deviceId: string): Promise<DevicePayment[]> {
  const ids = await devicePaymentIds(deps.db, deviceId, DEVICE_PAYMENTS_LIMIT);
  const payments: DevicePayment[] = [];
  for (const id of ids) {
    const [view] = await listTransfers(deps.db, { transferId: id, limit: 1, includeReversed: true });
    if (!view) continue;
    // Seen as the receiving account sees it: a palm payer masked ("a•••@d•••", their initial).
    const parties = partiesSeenBy(view, { accountId: view.credit_account_id });
    payments.push({
      txid: view.id,
      amount: paiseToRupeesText(view.amount_paise),
      status: statusOf(view),
      created_at: view.created_at.toISOString(),
      customer: parties.from,
      ...(parties.fromName === null ? {} : { customer_name: parties.fromName }),
    });
  }
  return payments;
}

/** The palm payments one device took (GET /api/devices/:id/payments): admin, or the device's owner. */
export async function managedDevicePayments(
  deps: Pick<DeviceDeps, 'db'>,
  input: { caller: DeviceCaller; deviceId: string },
): Promise<DevicePayment[]> {
  const device = await managedDevice(deps, input.caller, input.deviceId);
  return paymentsOf(deps, device.id);
}

/** The calling device's own palm payments (GET /api/devices/me/payments): a terminal's history. */
export async function thisDevicePayments(
  deps: Pick<DeviceDeps, 'db'>,
  token: string | undefined,
): Promise<DevicePayment[]> {
  const device = await authenticateDevice(deps, token);
  return paymentsOf(deps, device.id);
}
