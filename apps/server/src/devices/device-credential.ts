import { hashToken } from '../auth/secrets';
import { AppError } from '../lib/app-error';
import type { DeviceDeps } from './device-deps';
import { findDeviceByTokenHash, type Device } from './device-repository';

/** Longer than any token this server issues (43 characters): refused without a lookup. */
const DEVICE_TOKEN_MAX_CHARS = 100;

/**
 * The live device a device token belongs to: no token or an unknown one is 401 deviceRequired, a revoked
 * device 401 deviceRevoked. Read from the database on every call (no cache), so a revocation holds at once
 * on every server process.
 */
export async function authenticateDevice(
  deps: Pick<DeviceDeps, 'db'>,
  token: string | undefined,
): Promise<Device> {
  if (!token || token.length > DEVICE_TOKEN_MAX_CHARS) throw AppError.of('UNAUTHORIZED', 'deviceRequired');
  const device = await findDeviceByTokenHash(deps.db, hashToken(token));
  if (!device) throw AppError.of('UNAUTHORIZED', 'deviceRequired');
  if (device.revokedAt) throw AppError.of('UNAUTHORIZED', 'deviceRevoked');
  return device;
}
