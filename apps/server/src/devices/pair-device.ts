import type { Device as DeviceAnswer, DevicePublicKey } from '@hasta/contracts/devices';
import { hashToken, newToken } from '../auth/secrets';
import { AppError } from '../lib/app-error';
import { findStoreOfOwner } from '../merchant/merchant-repository';
import { assertStepUp } from '../palm/palm-step-up';
import type { DeviceCaller, DeviceDeps } from './device-deps';
import { claimPairingCode, findDevice, insertDevice, linkPairingCode } from './device-repository';
import { deviceView } from './device-view';
import { pairingCodeHash } from './pairing-code';
import { devicePublicKeyObject } from './verify-signed-scan';

export interface PairedDevice {
  device: DeviceAnswer;
  /** Shown once: the device keeps it with its key pair and sends it as X-Hasta-Device. */
  token: string;
}

/** Refuses a public key that is not a point of P-256 (the schema checked only its shape). */
function assertReadableKey(publicKey: DevicePublicKey): void {
  try {
    devicePublicKeyObject(publicKey);
  } catch {
    throw AppError.of('BAD_REQUEST', 'devicePublicKeyInvalid');
  }
}

async function answer(deps: Pick<DeviceDeps, 'db'>, id: string, token: string): Promise<PairedDevice> {
  const device = await findDevice(deps.db, id);
  if (!device) throw new Error(`device ${id} vanished right after pairing`);
  return { device: deviceView(device, { paymentCount: 0, enrolmentCount: 0 }), token };
}

/**
 * Pairs a kiosk or a terminal with a pairing code (POST /api/devices/pair; no session: the code is the
 * authority). The code is taken in the pairing's transaction, so it pairs one device at most; the device
 * belongs to whoever made the code, and to the code's store or kiosk.
 */
export async function pairDevice(
  deps: DeviceDeps,
  input: { code: string; publicKey: DevicePublicKey; name: string | undefined },
): Promise<PairedDevice> {
  assertReadableKey(input.publicKey);
  const codeHash = pairingCodeHash(deps.secret, input.code);
  const token = newToken();
  const now = deps.now();
  const id = await deps.db.transaction().execute(async (trx) => {
    const code = await claimPairingCode(trx, codeHash, now);
    if (!code) throw AppError.of('BAD_REQUEST', 'pairingCodeInvalid');
    const deviceId = await insertDevice(trx, {
      kind: code.kind,
      name: input.name ?? code.name,
      ownerUserId: code.createdBy,
      merchantId: code.merchantId,
      kioskId: code.kioskId,
      tokenHash: hashToken(token),
      publicKey: input.publicKey,
      createdAt: now,
    });
    await linkPairingCode(trx, codeHash, deviceId);
    return deviceId;
  });
  return answer(deps, id, token);
}

/**
 * Makes a signed-in person's own browser a device (POST /api/devices/this-browser): their session needs a
 * live 'palm_enrol' step-up (a code to their own phone or email, or their passkey), as enrolling a palm
 * does. 'personal' is the person's own browser (receiving by palm, registering their palm); 'terminal' is a
 * store owner's browser taking their store's palm payments (the Accept Palm tab).
 */
export async function pairThisBrowser(
  deps: DeviceDeps,
  input: {
    caller: DeviceCaller & { sessionId: string };
    kind: 'personal' | 'terminal';
    publicKey: DevicePublicKey;
    name: string;
  },
): Promise<PairedDevice> {
  assertReadableKey(input.publicKey);
  const { caller } = input;
  const now = deps.now();
  let merchantId: string | null = null;
  if (input.kind === 'terminal') {
    const store = caller.role === 'merchant' ? await findStoreOfOwner(deps.db, caller.userId) : undefined;
    if (!store) throw AppError.of('FORBIDDEN', 'merchantOnly');
    merchantId = store.id;
  }
  await assertStepUp(
    deps.db,
    { userId: caller.userId, sessionId: caller.sessionId, purpose: 'palm_enrol' },
    now,
  );
  const token = newToken();
  const id = await insertDevice(deps.db, {
    kind: input.kind,
    name: input.name,
    ownerUserId: caller.userId,
    merchantId,
    kioskId: null,
    tokenHash: hashToken(token),
    publicKey: input.publicKey,
    createdAt: now,
  });
  return answer(deps, id, token);
}
