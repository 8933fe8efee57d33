import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** The person a wallet belongs to, as the wallet screens name them. */
export interface WalletOwner {
  id: string;
  email: string | null;
  phone: string | null;
  username: string;
}

/** The user with this id, or undefined. */
export async function findWalletOwner(db: Kysely<Schema>, userId: string): Promise<WalletOwner | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'username'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
