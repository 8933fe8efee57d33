import { paymentUriResponseSchema, qrResolveResponseSchema } from '@hasta/contracts/qr';
import type { QrResolveResponse } from '@hasta/contracts/qr';

import { apiRequest } from '../../../lib/api-client';

/** Whom a scanned code pays, as POST /api/qr/resolve answers it. */
export type ScannedPayee = QrResolveResponse;

/** POST /api/qr/resolve: the server names the payee (and counts a store code's scan). */
export function resolvePaymentQr(uri: string, signal?: AbortSignal): Promise<ScannedPayee> {
  return apiRequest('/api/qr/resolve', {
    method: 'POST',
    body: { uri },
    schema: qrResolveResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

export const receiveQrQueryKey = (userId: string, amount: string | null) =>
  ['wallet', 'receive-qr', userId, amount] as const;

/** GET /api/qr/receive: the signed-in person's own payment URI, optionally for a fixed amount. */
export function fetchReceiveQr(amount: string | null, signal?: AbortSignal) {
  const query = amount === null ? '' : `?${new URLSearchParams({ amount })}`;
  return apiRequest(`/api/qr/receive${query}`, {
    schema: paymentUriResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}
