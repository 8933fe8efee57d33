import { DEVICE_HEADER, type ScanPurpose } from '@hasta/contracts/devices';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateDevice } from '../../devices/device-credential';
import type { DeviceDeps } from '../../devices/device-deps';
import { AppError } from '../../lib/app-error';
import { authenticate, requireUser } from '../../plugins/auth';
import type { Device } from '../../devices/device-repository';
import { verifySignedScan } from '../../devices/verify-signed-scan';
import { idempotencyKey } from './idempotency-key';

/** The devices use cases' dependencies: the route plugin's database, the server secret, the sessions' clock. */
export function deviceDeps(app: FastifyInstance, db: DeviceDeps['db']): DeviceDeps {
  return { db, secret: app.env.COOKIE_SECRET, now: () => app.sessionClock() };
}

/** The device token the request carries (X-Hasta-Device), if any. */
export function deviceToken(request: FastifyRequest): string | undefined {
  const value = request.headers[DEVICE_HEADER];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Authorises a posted palm scan (issue 22), after who may call is known and before anything reads a frame:
 * the paired device's signed single-use challenge must fit this purpose, amount and receiver and these
 * frames (devices/verify-signed-scan.ts). Answers the device to record.
 */
export function requireSignedScan(
  request: FastifyRequest,
  deps: DeviceDeps,
  input: {
    purpose: ScanPurpose;
    sessionUserId: string | undefined;
    amountPaise: bigint | null;
    body: { challenge?: string | undefined; signature?: string | undefined; scan: { frames: string[] } };
  },
): Promise<Device> {
  return verifySignedScan(deps, {
    deviceToken: deviceToken(request),
    sessionUserId: input.sessionUserId,
    purpose: input.purpose,
    amountPaise: input.amountPaise,
    challenge: input.body.challenge,
    signature: input.body.signature,
    frames: input.body.scan.frames,
    idempotencyKey: idempotencyKey(request),
  });
}

/**
 * Who finishes a palm payment waiting for the payer's code (decision 022): the signed-in receiver, or, with
 * no session, a store's terminal alone, for the payments it took itself (`deviceId`).
 */
export async function requirePaymentTaker(
  request: FastifyRequest,
  deps: DeviceDeps,
): Promise<{ receiverUserId: string; deviceId?: string }> {
  const token = deviceToken(request);
  if (token === undefined || (await authenticate(request)) !== undefined)
    return { receiverUserId: (await requireUser(request)).user.id };
  const device = await authenticateDevice(deps, token);
  if (device.kind !== 'terminal') throw AppError.of('FORBIDDEN', 'deviceNotAllowed');
  return { receiverUserId: device.ownerUserId, deviceId: device.id };
}
