import { HISTORY_PAGE_SIZE } from '@hasta/contracts/wallet';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import { findWallet } from '../wallet/find-wallet';
import { readHistoryPage, type HistoryPage } from './history-page';

export interface DashboardHistoryQuery {
  userId: string;
  /** The `next` of the page before ("transfer seq.palm event seq"); none for the newest page. */
  before: string | undefined;
  /** Entries on the page; the history screens' page size when not given. */
  limit: number | undefined;
  /** The reader is an admin: palm payers are shown unmasked. */
  revealPayers?: boolean;
}

/** An older page of a user's dashboard history (transfers and palm events). 404 for an unknown user. */
export async function listDashboardHistory(
  deps: { db: Kysely<Schema>; ledger: Pick<Ledger, 'ensureUserAccount'> },
  query: DashboardHistoryQuery,
): Promise<HistoryPage> {
  const { owner, accountId } = await findWallet(deps, query.userId);
  return readHistoryPage(
    deps.db,
    { userId: owner.id, accountId },
    query.before,
    query.limit ?? HISTORY_PAGE_SIZE,
    query.revealPayers ?? false,
  );
}
