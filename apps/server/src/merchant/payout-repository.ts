import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

export type PayoutStatus = 'pending' | 'settled' | 'rejected' | 'expired';
/** How a withdrawal ends. */
export type PayoutOutcome = Exclude<PayoutStatus, 'pending'>;

/** A withdrawal: its id is its pending transfer's id in the ledger. */
export interface Payout {
  id: string;
  merchantId: string;
  amountPaise: bigint;
  status: PayoutStatus;
}

/** A withdrawal as lists show it: with its store and the last digits of its bank account. */
export interface PayoutListItem {
  id: string;
  amountPaise: bigint;
  status: PayoutStatus;
  createdAt: Date;
  bankAccountLast4: string;
  storeName: string;
}

/** Written in the transaction of the pending transfer that reserves the amount. */
export async function insertPayout(
  trx: Transaction<Schema>,
  payout: { id: string; merchantId: string; bankAccountId: string; amountPaise: bigint },
): Promise<void> {
  await trx
    .insertInto('merchant_payouts')
    .values({
      id: payout.id,
      merchant_id: payout.merchantId,
      bank_account_id: payout.bankAccountId,
      amount_paise: payout.amountPaise,
    })
    .execute();
}

export async function findPayout(db: Kysely<Schema>, id: string): Promise<Payout | undefined> {
  const row = await db
    .selectFrom('merchant_payouts')
    .select(['id', 'merchant_id', 'amount_paise', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? { id: row.id, merchantId: row.merchant_id, amountPaise: row.amount_paise, status: row.status }
    : undefined;
}

/** Ends a pending withdrawal, in the transaction of its resolution in the ledger. */
export async function markPayout(
  trx: Transaction<Schema>,
  id: string,
  outcome: PayoutOutcome,
  resolvedBy: string | null,
): Promise<void> {
  await trx
    .updateTable('merchant_payouts')
    .set({ status: outcome, resolved_at: new Date(), resolved_by: resolvedBy })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Withdrawals newest first, at most `limit`: one store's, or every store's. */
export async function listPayouts(
  db: Kysely<Schema>,
  options: { merchantId?: string; limit: number },
): Promise<PayoutListItem[]> {
  let query = db
    .selectFrom('merchant_payouts')
    .innerJoin('merchant_bank_accounts', 'merchant_bank_accounts.id', 'merchant_payouts.bank_account_id')
    .innerJoin('merchants', 'merchants.id', 'merchant_payouts.merchant_id')
    .select([
      'merchant_payouts.id',
      'merchant_payouts.amount_paise',
      'merchant_payouts.status',
      'merchant_payouts.created_at',
      'merchant_bank_accounts.account_number',
      'merchants.store_name',
    ])
    .orderBy('merchant_payouts.created_at', 'desc')
    .limit(options.limit);
  if (options.merchantId) query = query.where('merchant_payouts.merchant_id', '=', options.merchantId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    amountPaise: row.amount_paise,
    status: row.status,
    createdAt: row.created_at,
    bankAccountLast4: row.account_number.slice(-4),
    storeName: row.store_name,
  }));
}

/** What the store's settled withdrawals took out, in paise. */
/** The store's withdrawals still pending (asked for, not yet settled, rejected or expired): count and sum. */
export async function pendingPayoutTotals(
  db: Kysely<Schema>,
  merchantId: string,
): Promise<{ count: number; paise: bigint }> {
  const row = await db
    .selectFrom('merchant_payouts')
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      eb.fn.coalesce(eb.fn.sum<string>('amount_paise'), sql<string>`0`).as('total'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), paise: BigInt(row.total) };
}

export async function settledPayoutTotal(db: Kysely<Schema>, merchantId: string): Promise<bigint> {
  const row = await db
    .selectFrom('merchant_payouts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_paise'), sql<string>`0`).as('total'))
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'settled')
    .executeTakeFirstOrThrow();
  return BigInt(row.total);
}
