import type { bankAccountRequestSchema, bankAccountSchema } from '@hasta/contracts/merchant';
import type { z } from 'zod';
import { insertBankAccount, listBankAccounts, type BankAccount } from './bank-account-repository';
import type { MerchantDeps } from './merchant-deps';
import type { SignedInStore } from './signed-in-store';

export type BankAccountAnswer = z.infer<typeof bankAccountSchema>;

function toAnswer(account: BankAccount): BankAccountAnswer {
  return {
    id: account.id,
    holder_name: account.holderName,
    account_number_last4: account.accountNumberLast4,
    ifsc: account.ifsc,
  };
}

/** The store's bank accounts; only the last four digits of a number leave the server. */
export async function storeBankAccounts(
  deps: Pick<MerchantDeps, 'db'>,
  store: SignedInStore,
): Promise<BankAccountAnswer[]> {
  return (await listBankAccounts(deps.db, store.id)).map(toAnswer);
}

/** Saves a bank account for withdrawals and answers the store's accounts with it. */
export async function addBankAccount(
  deps: Pick<MerchantDeps, 'db'>,
  store: SignedInStore,
  account: z.infer<typeof bankAccountRequestSchema>,
): Promise<BankAccountAnswer[]> {
  await insertBankAccount(deps.db, store.id, {
    holderName: account.holder_name,
    accountNumber: account.account_number,
    ifsc: account.ifsc,
  });
  return storeBankAccounts(deps, store);
}
