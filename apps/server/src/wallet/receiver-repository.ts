import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

/** The person an email or phone names, with their store when they are a merchant. */
export interface Receiver {
  id: string;
  email: string | null;
  phone: string | null;
  /** Their store, when they are a merchant. */
  storeId: string | null;
  storeContactEmail: string | null;
}

/** The people the addresses (normalised emails or phones) name, by address; an address naming nobody is absent. */
export async function findReceivers(
  db: Kysely<Schema>,
  addresses: readonly string[],
): Promise<Map<string, Receiver>> {
  const rows = await sql<{
    id: string;
    email: string | null;
    phone: string | null;
    store_id: string | null;
    store_contact_email: string | null;
  }>`
    SELECT u.id, u.email, u.phone, m.id AS store_id, m.verified_contact_email AS store_contact_email
    FROM users u
    LEFT JOIN merchants m ON u.role = 'merchant' AND m.owner_user_id = u.id
    WHERE u.email = ANY(${addresses}::text[]) OR u.phone = ANY(${addresses}::text[])`.execute(db);
  const found = new Map<string, Receiver>();
  for (const row of rows.rows) {
    const receiver: Receiver = {
      id: row.id,
      email: row.email,
      phone: row.phone,
      storeId: row.store_id,
      storeContactEmail: row.store_contact_email,
    };
    if (row.email !== null) found.set(row.email, receiver);
    if (row.phone !== null) found.set(row.phone, receiver);
  }
  return found;
}

/**
 * The ledger account each address names now: the owner's store's when they are a merchant with one, else
 * their own (null when that account is not open, or the address names nobody).
 */
export async function accountsNamedBy(
  trx: Transaction<Schema>,
  addresses: readonly string[],
): Promise<Map<string, string | null>> {
  if (addresses.length === 0) return new Map();
  const rows = await sql<{ address: string; account_id: string | null }>`
    SELECT w.address, (
      SELECT CASE WHEN m.id IS NULL THEN ua.id ELSE ma.id END
      FROM users u
      LEFT JOIN merchants m ON u.role = 'merchant' AND m.owner_user_id = u.id
      LEFT JOIN ledger_accounts ma ON ma.merchant_id = m.id
      LEFT JOIN ledger_accounts ua ON ua.user_id = u.id
      WHERE u.email = w.address OR u.phone = w.address
      LIMIT 1) AS account_id
    FROM unnest(${[...new Set(addresses)]}::text[]) AS w(address)`.execute(trx);
  return new Map(rows.rows.map((row) => [row.address, row.account_id]));
}
