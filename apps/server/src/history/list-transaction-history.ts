import { HISTORY_PAGE_MAX, type TransactionRecord } from '@hasta/contracts/wallet';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import { listTransfers, toTransactionRecord } from '../ledger/queries';
import { AppError } from '../lib/app-error';
import { findWallet } from '../wallet/find-wallet';

export interface TransactionHistoryQuery {
  userId: string;
  /** The `next` of the page before (a transfer seq); none for the newest page. */
  before: string | undefined;
  /** Transfers on the page; the most a page holds when not given. */
  limit: number | undefined;
  /** The reader is an admin: palm payers are shown unmasked. */
  revealPayers?: boolean;
}

/**
 * A page of the transfers a user sent or received, newest first, reversed ones included (a palm payment's
 * payer masked unless they or an admin read it). 404 for an unknown user; a dashboard cursor ("seq.seq") is refused.
 */
export async function listTransactionHistory(
  deps: { db: Kysely<Schema>; ledger: Pick<Ledger, 'ensureUserAccount'> },
  query: TransactionHistoryQuery,
): Promise<{ transactions: TransactionRecord[]; next: string | null }> {
  const { accountId } = await findWallet(deps, query.userId);
  if (query.before?.includes('.')) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  const size = query.limit ?? HISTORY_PAGE_MAX;
  const transfers = await listTransfers(deps.db, {
    accountId,
    beforeSeq: query.before === undefined ? undefined : BigInt(query.before),
    limit: size + 1,
    includeReversed: true,
  });
  const page = transfers.slice(0, size);
  return {
    transactions: page.map((view) =>
      toTransactionRecord(view, { accountId, revealPayers: query.revealPayers ?? false }),
    ),
    next: transfers.length > size ? page[page.length - 1]!.seq.toString() : null,
  };
}
