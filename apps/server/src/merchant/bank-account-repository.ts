import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A store's bank account for withdrawals. The full number stays in the database. */
export interface BankAccount {
  id: string;
  holderName: string;
  accountNumberLast4: string;
  ifsc: string;
}

/** The store's bank accounts, oldest first (a store has a handful). */
export async function listBankAccounts(db: Kysely<Schema>, merchantId: string): Promise<BankAccount[]> {
  const rows = await db
    .selectFrom('merchant_bank_accounts')
    .select(['id', 'holder_name', 'account_number', 'ifsc'])
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    holderName: row.holder_name,
    accountNumberLast4: row.account_number.slice(-4),
    ifsc: row.ifsc,
  }));
}

export async function insertBankAccount(
  db: Kysely<Schema>,
  merchantId: string,
  account: { holderName: string; accountNumber: string; ifsc: string },
): Promise<void> {
  await db
    .insertInto('merchant_bank_accounts')
    .values({
      merchant_id: merchantId,
      holder_name: account.holderName,
      account_number: account.accountNumber,
      ifsc: account.ifsc,
    })
    .execute();
}

/** True when the bank account exists and belongs to this store. */
export async function isBankAccountOf(
  db: Kysely<Schema>,
  merchantId: string,
  bankAccountId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('merchant_bank_accounts')
    .select('id')
    .where('id', '=', bankAccountId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row !== undefined;
}
