import { palmConfirmationResponseSchema, palmPaymentResponseSchema } from '@hasta/contracts/palm';
import type { PalmScan } from '@hasta/contracts/palm';
import { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import type { SignedScan } from '../../../lib/device-session';

export type TerminalPaid = z.infer<typeof palmPaymentResponseSchema>;
export type TerminalWaitsForCode = z.infer<typeof palmConfirmationResponseSchema>;
const answerSchema = z.union([palmPaymentResponseSchema, palmConfirmationResponseSchema]);

export const terminalKeys = {
  me: (token: string) => ['devices', 'terminal', 'me', token] as const,
  payments: (token: string) => ['devices', 'terminal', 'payments', token] as const,
};

/**
 * POST /api/transaction from a paired terminal (issue 22): no person's session, the device header and the
 * scan's signature are its credentials; the money goes into the terminal's store. `idempotencyKey` is the
 * payment's: sent again after a lost answer, the server answers the payment it already made.
 */
export function takeTerminalPayment(request: {
  amountText: string;
  scan: PalmScan;
  signed: SignedScan;
  idempotencyKey: string;
}): Promise<TerminalPaid | TerminalWaitsForCode> {
  return apiRequest('/api/transaction', {
    method: 'POST',
    headers: { ...request.signed.headers, 'Idempotency-Key': request.idempotencyKey },
    body: { amount: Number(request.amountText), scan: request.scan, ...request.signed.fields },
    schema: answerSchema,
  });
}
