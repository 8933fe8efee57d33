import { HISTORY_PAGE_SIZE, type DashboardResponse } from '@hasta/contracts/wallet';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import { findWallet } from '../wallet/find-wallet';
import { readHistoryPage } from './history-page';
import { registeredPalms } from './palm-template-repository';

/**
 * A user's wallet overview: who they are, their balance, which palms they registered and the newest page of
 * their history. 404 for an unknown user.
 */
export async function showDashboard(
  deps: { db: Kysely<Schema>; ledger: Pick<Ledger, 'ensureUserAccount' | 'account'> },
  userId: string,
  /** The reader is an admin: palm payers in the history are shown unmasked. */
  options: { revealPayers?: boolean } = {},
): Promise<DashboardResponse['user']> {
  const { owner, accountId } = await findWallet(deps, userId);
  const account = await deps.ledger.account(accountId);
  if (!account)
    throw new Error(`ledger account ${accountId} of user ${owner.id} is missing after it was opened`);
  const balancePaise = account.creditsPosted - account.debitsPosted;
  const [palms, history] = await Promise.all([
    registeredPalms(deps.db, owner.id),
    readHistoryPage(
      deps.db,
      { userId: owner.id, accountId },
      undefined,
      HISTORY_PAGE_SIZE,
      options.revealPayers ?? false,
    ),
  ]);
  return {
    id: owner.id,
    email: owner.email,
    phone: owner.phone,
    username: owner.username,
    balance: paiseToRupeesText(balancePaise),
    balance_paise: balancePaise.toString(),
    palm_hash: palms[0]?.palm_hash ?? null,
    handinfo: {
      left: palms.some((palm) => palm.hand === 'left'),
      right: palms.some((palm) => palm.hand === 'right'),
    },
    user_history: history.entries,
    user_history_next: history.next,
  };
}
