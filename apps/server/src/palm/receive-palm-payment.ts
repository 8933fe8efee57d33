import type { PalmScan } from '@hasta/contracts/palm';
import { takePalmPayment, type PalmPaymentDeps, type PalmPaymentOutcome } from './take-palm-payment';

/**
 * Receive money by palm (/Palm/authenticate): the palm names the payer and the money comes to the caller,
 * into their store when they are a merchant with one, else into their own wallet.
 */
export async function receivePalmPayment(
  deps: PalmPaymentDeps,
  input: {
    receiver: { id: string; role: string };
    amountPaise: bigint;
    scan: PalmScan;
    idempotencyKey: string | undefined;
    linkOrigin: string;
    device: string | null;
    /** The paired device that took the scan (issue 22). */
    deviceId: string;
  },
): Promise<PalmPaymentOutcome> {
  const storeId =
    input.receiver.role === 'merchant' ? await deps.payments.storeOwnedBy(input.receiver.id) : undefined;
  return takePalmPayment(deps, {
    scan: input.scan,
    amountPaise: input.amountPaise,
    receiverUserId: input.receiver.id,
    creditAccountId:
      storeId !== undefined
        ? await deps.ledger.ensureMerchantAccount(storeId)
        : await deps.ledger.ensureUserAccount(input.receiver.id),
    idempotencyKey: input.idempotencyKey,
    linkOrigin: input.linkOrigin,
    device: input.device,
    deviceId: input.deviceId,
  });
}
