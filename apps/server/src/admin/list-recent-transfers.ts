import type { adminTransactionSchema } from '@hasta/contracts/wallet';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Schema } from '../db/schema';
import { listTransfers, statusOf } from '../ledger/queries';

/** The most transfers the admin's list shows. */
export const ADMIN_LIST_LIMIT = 500;

export type AdminTransaction = z.infer<typeof adminTransactionSchema>;

/** The admin's list of recent transfers, newest first; reversed ones only when asked for. */
export async function listRecentTransfers(
  deps: { db: Kysely<Schema> },
  options: { includeReversed: boolean },
): Promise<AdminTransaction[]> {
  const transfers = await listTransfers(deps.db, {
    limit: ADMIN_LIST_LIMIT,
    includeReversed: options.includeReversed,
  });
  return transfers.map((view) => ({
    txid: view.id,
    kind: view.kind,
    from_user_id: view.from_user_id,
    to_user_id: view.to_user_id,
    to_merchant_id: view.to_merchant_id,
    amount: paiseToRupeesText(view.amount_paise),
    status: statusOf(view),
    created_at: view.created_at.toISOString(),
  }));
}
