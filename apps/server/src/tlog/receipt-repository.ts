import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/**
 * Whether the transfer or event `refId` concerns the user: a party to the transfer (or the owner of a store
 * that is), or the user of a consent event.
 */
export async function concernsUser(db: Kysely<Schema>, refId: string, userId: string): Promise<boolean> {
  const result = await sql<{ yes: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM ledger_transfers t
      JOIN ledger_accounts a ON a.id IN (t.debit_account_id, t.credit_account_id)
      LEFT JOIN merchants m ON m.id = a.merchant_id
      WHERE t.id = ${refId} AND (a.user_id = ${userId} OR m.owner_user_id = ${userId})
    ) OR EXISTS (
      SELECT 1 FROM tlog_entries e WHERE e.ref_id = ${refId} AND e.type <> 'payment' AND e.user_id = ${userId}
    ) AS yes`.execute(db);
  return result.rows[0]?.yes === true;
}
