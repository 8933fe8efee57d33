import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** Where a scanned code's money would go: the payee's name and the account's email and phone. */
export interface Payee {
  name: string;
  email: string | null;
  phone: string | null;
}

export async function findPersonPayee(db: Kysely<Schema>, userId: string): Promise<Payee | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['username', 'email', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row && { name: row.username, email: row.email, phone: row.phone };
}

/** A store as a payee, with its owner (whose account receives the money). */
export async function findStorePayee(
  db: Kysely<Schema>,
  merchantId: string,
): Promise<(Payee & { ownerUserId: string }) | undefined> {
  const row = await db
    .selectFrom('merchants')
    .innerJoin('users', 'users.id', 'merchants.owner_user_id')
    .select(['merchants.store_name', 'merchants.owner_user_id', 'users.email', 'users.phone'])
    .where('merchants.id', '=', merchantId)
    .executeTakeFirst();
  return row && { name: row.store_name, email: row.email, phone: row.phone, ownerUserId: row.owner_user_id };
}

/** A store's printed code by its `qr` id. */
export async function findStoreQrCode(
  db: Kysely<Schema>,
  input: { token: string; merchantId: string },
): Promise<{ id: string; amountPaise: bigint | null } | undefined> {
  const row = await db
    .selectFrom('merchant_qr_codes')
    .select(['id', 'amount_paise'])
    .where('token', '=', input.token)
    .where('merchant_id', '=', input.merchantId)
    .executeTakeFirst();
  return row && { id: row.id, amountPaise: row.amount_paise };
}

/** Counts one scan of a store's code. */
export async function recordQrScan(db: Kysely<Schema>, qrCodeId: string, now: Date): Promise<void> {
  await db
    .updateTable('merchant_qr_codes')
    .set({ scans: sql<number>`scans + 1`, last_scanned_at: now })
    .where('id', '=', qrCodeId)
    .execute();
}
