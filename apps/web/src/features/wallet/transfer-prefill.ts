import { qrResolveResponseSchema } from '@hasta/contracts/qr';
import { z } from 'zod';

import type { TransferFormValues } from './transfer-validation';

/** What /qr-scan hands /transfer in router state: the payee the server named for the scanned code. */
export const transferPrefillSchema = z.object({ qrPayee: qrResolveResponseSchema });
export type TransferPrefill = z.infer<typeof transferPrefillSchema>;
export type QrPayee = TransferPrefill['qrPayee'];

/** Router state is whatever the history entry holds: anything but a valid prefill is none. */
export function readTransferPrefill(state: unknown): QrPayee | null {
  const parsed = transferPrefillSchema.safeParse(state);
  return parsed.success ? parsed.data.qrPayee : null;
}

/** The send form for a scanned payee: one address (the email when there is one) and any fixed amount. */
export function formForPayee(payee: QrPayee, typedAmount = ''): TransferFormValues {
  return {
    receiverEmail: payee.receiverEmail ?? '',
    receiverPhone: payee.receiverEmail === null ? (payee.receiverPhone ?? '') : '',
    amount: payee.amount ?? typedAmount,
  };
}
