import type { bankAccountRequestSchema, bankAccountSchema } from '@hasta/contracts/merchant';
import type { z } from 'zod';
import { indiaTimeText, notifyOwner } from '../notices/notify-owner';
import { assertStepUp } from '../palm/palm-step-up';
import { insertBankAccount, listBankAccounts, type BankAccount } from './bank-account-repository';
import type { MerchantDeps } from './merchant-deps';
import type { SignedInStore, StoreSession } from './signed-in-store';

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

/**
 * Saves a bank account for withdrawals and answers the store's accounts with it (issue 23): the session needs
 * the owner's live 'store_bank_account' step-up (403 stepUpRequired otherwise), and the owner is told on
 * their own phone (else email), so a stolen session cannot quietly add where the money goes.
 */
export async function addBankAccount(
  deps: Pick<MerchantDeps, 'db' | 'messenger' | 'onNoticeFailed'>,
  store: StoreSession,
  account: z.infer<typeof bankAccountRequestSchema>,
  now = new Date(),
): Promise<BankAccountAnswer[]> {
  await assertStepUp(
    deps.db,
    { userId: store.ownerUserId, sessionId: store.sessionId, purpose: 'store_bank_account' },
    now,
  );
  await insertBankAccount(deps.db, store.id, {
    holderName: account.holder_name,
    accountNumber: account.account_number,
    ifsc: account.ifsc,
  });
  await notifyOwner(deps, store.ownerUserId, {
    subject: 'A bank account was added to your store',
    body: `A bank account ending ${account.account_number.slice(-4)} was added to ${store.storeName} on ${indiaTimeText(now)}. If this was not you, change your password and contact Hasta support now.`,
  }).catch(deps.onNoticeFailed);
  return storeBankAccounts(deps, store);
}
