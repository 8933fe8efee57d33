import {
  adminTransactionsResponseSchema,
  assignBalanceResponseSchema,
  deleteTransactionResponseSchema,
} from '@hasta/contracts/wallet';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import { withPasskeyReauth } from '../../../lib/passkeys';

export type AdminTransaction = z.infer<typeof adminTransactionsResponseSchema>['transactions'][number];

export const adminTransactionsQueryKey = ['admin', 'transactions'] as const;

/** POST /api/assignBalance: value issued by Hasta to a user (spec §2.17, §5.4). */
export function assignBalance(userId: string, amountText: string) {
  // Moves money: the server may ask for the admin's passkey again first (issue 23).
  return withPasskeyReauth(() =>
    apiRequest('/api/assignBalance', {
      method: 'POST',
      body: { userId, amount: Number(amountText) },
      schema: assignBalanceResponseSchema,
    }),
  );
}

/** GET /api/transaction (reversed ones included, so a deletion stays visible). */
export async function fetchAdminTransactions(signal?: AbortSignal): Promise<AdminTransaction[]> {
  const answer = await apiRequest('/api/transaction?include_deleted=true', {
    schema: adminTransactionsResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return answer.transactions;
}

/** DELETE /api/transaction/{txid}: a reversal, refused when the receiver no longer has the money. */
export function deleteTransaction(txid: string) {
  return withPasskeyReauth(() =>
    apiRequest(`/api/transaction/${encodeURIComponent(txid)}`, {
      method: 'DELETE',
      schema: deleteTransactionResponseSchema,
    }),
  );
}
