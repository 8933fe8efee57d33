import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import { AppError } from '../lib/app-error';
import { findWalletOwner, type WalletOwner } from './wallet-owner-repository';

/** A user's wallet: who owns it and its ledger account (opened on first use); 404 for an unknown user. */
export async function findWallet(
  deps: { db: Kysely<Schema>; ledger: Pick<Ledger, 'ensureUserAccount'> },
  userId: string,
): Promise<{ owner: WalletOwner; accountId: string }> {
  const owner = await findWalletOwner(deps.db, userId);
  if (!owner) throw AppError.of('NOT_FOUND', 'userNotFound');
  return { owner, accountId: await deps.ledger.ensureUserAccount(owner.id) };
}
