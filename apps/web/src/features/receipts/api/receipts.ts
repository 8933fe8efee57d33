import { logKeyResponseSchema, receiptSchema } from '@hasta/contracts/log';
import type { ReceiptBody } from '@hasta/contracts/log';

import { apiRequest } from '../../../lib/api-client';

/** GET /api/log/key: the log's origin and verifier key. */
export function fetchLogKey(signal?: AbortSignal) {
  return apiRequest('/api/log/key', { schema: logKeyResponseSchema, ...(signal ? { signal } : {}) });
}

/** GET /api/receipts/{id}: the receipt of one of the signed-in user's transactions. */
export function fetchReceipt(id: string, signal?: AbortSignal): Promise<ReceiptBody> {
  return apiRequest(`/api/receipts/${encodeURIComponent(id)}`, {
    schema: receiptSchema,
    ...(signal ? { signal } : {}),
  });
}
