import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import { AppError } from '../lib/app-error';
import { findWalletOwner, type WalletOwner } from './wallet-owner-repository';

export interface WalletDependencies {
  db: Kysely<Schema>;
  ledger: Pick<Ledger, 'ensureUserAccount'>;
}

/** A user's wallet: who owns it and its ledger account (opened on first use); 404 for an unknown user. */
export async function findWallet(
  deps: WalletDependencies,
  userId: string,
): Promise<{ owner: WalletOwner; accountId: string }> {
  const owner = await findWalletOwner(deps.db, userId);
  if (!owner) throw AppError.of('NOT_FOUND', 'userNotFound');
  return { owner, accountId: await deps.ledger.ensureUserAccount(owner.id) };
}
