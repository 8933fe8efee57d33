import { successResponseSchema } from '@hasta/contracts/auth';
import {
  approveVendorResponseSchema,
  merchantListResponseSchema,
  withdrawalListSchema,
} from '@hasta/contracts/merchant';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import { withPasskeyReauth } from '../../../lib/passkeys';

/** Merchant accounts and their withdrawals, as admins manage them. */

export type MerchantAccount = z.infer<typeof merchantListResponseSchema>['merchants'][number];
export type Withdrawal = z.infer<typeof withdrawalListSchema>['withdrawals'][number];
export type PayoutAction = 'settle' | 'reject';

export const merchantsQueryKey = ['admin', 'merchants'] as const;
export const payoutsQueryKey = ['admin', 'payouts'] as const;

const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** GET /api/merchants. */
export async function fetchMerchants(signal?: AbortSignal): Promise<MerchantAccount[]> {
  return (await apiRequest('/api/merchants', { schema: merchantListResponseSchema, ...withSignal(signal) }))
    .merchants;
}

/** POST /api/merchants: a vendor registration becomes a merchant account; its owner is emailed. */
export function approveVendor(vendorRegistrationId: string) {
  return apiRequest('/api/merchants', {
    method: 'POST',
    body: { vendorRegistrationId },
    schema: approveVendorResponseSchema,
  });
}

/** GET /api/payouts: every store's withdrawals, newest first. */
export async function fetchPayouts(signal?: AbortSignal): Promise<Withdrawal[]> {
  return (await apiRequest('/api/payouts', { schema: withdrawalListSchema, ...withSignal(signal) }))
    .withdrawals;
}

/** POST /api/payouts/{id}: settle (the money leaves to the bank) or reject (it returns to the store). */
export function decidePayout(id: string, action: PayoutAction) {
  // Moves money: the server may ask for the admin's passkey again first (issue 23).
  return withPasskeyReauth(() =>
    apiRequest(`/api/payouts/${encodeURIComponent(id)}`, {
      method: 'POST',
      body: { action },
      schema: successResponseSchema,
    }),
  );
}
