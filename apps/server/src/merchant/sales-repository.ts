import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A store's takings, over every transfer into its account (not a page of them). */
export interface StoreSales {
  /** The completed transfers' amounts together. */
  salesPaise: bigint;
  /** Completed transfers: posted and not reversed. */
  completed: number;
  /** Transfers with an outcome: completed, reversed or voided (not the pending ones). */
  attempts: number;
  /** Distinct accounts that paid a completed transfer. */
  customers: number;
  /** Palm payments into the store, whatever their status. */
  palmScans: number;
}

/**
 * Sums the store's incoming transfers in the database. A transfer counts as the store's when it credits the
 * account and is a single or pending transfer (posting and voiding are its status, never rows of their own),
 * and its status is exactly `statusOf` in ledger/queries.ts: reversed when a reversal points at it, else
 * completed when single or posted, voided when voided, else pending. (`reverses_id` and the resolution's
 * `pending_id` are unique, so each subquery finds one row at most.)
 */
export async function storeSales(db: Kysely<Schema>, accountId: string): Promise<StoreSales> {
  const result = await sql<{
    sales_paise: string;
    completed: string;
    attempts: string;
    customers: string;
    palm_scans: string;
  }>`
    WITH incoming AS (
      SELECT t.amount_paise, t.kind, t.debit_account_id,
             CASE
               WHEN EXISTS (SELECT 1 FROM ledger_transfers x WHERE x.reverses_id = t.id) THEN 'reversed'
               WHEN t.phase = 'single' THEN 'completed'
               ELSE COALESCE(
                 (SELECT CASE r.phase WHEN 'post' THEN 'completed' ELSE 'voided' END
                  FROM ledger_transfers r WHERE r.pending_id = t.id),
                 'pending')
             END AS status
      FROM ledger_transfers t
      WHERE t.credit_account_id = ${accountId} AND t.phase IN ('single', 'pending')
    )
    SELECT COALESCE(SUM(amount_paise) FILTER (WHERE status = 'completed'), 0)::text AS sales_paise,
           (COUNT(*) FILTER (WHERE status = 'completed'))::text AS completed,
           (COUNT(*) FILTER (WHERE status <> 'pending'))::text AS attempts,
           (COUNT(DISTINCT debit_account_id) FILTER (WHERE status = 'completed'))::text AS customers,
           (COUNT(*) FILTER (WHERE kind = 'payment'))::text AS palm_scans
    FROM incoming`.execute(db);
  const row = result.rows[0]!;
  const sales: StoreSales = {
    salesPaise: BigInt(row.sales_paise),
    completed: Number(row.completed),
    attempts: Number(row.attempts),
    customers: Number(row.customers),
    palmScans: Number(row.palm_scans),
  };
  if (sales.salesPaise < 0n || sales.completed > sales.attempts || sales.customers > sales.completed)
    throw new Error(`store sales of account ${accountId} are inconsistent`);
  return sales;
}
