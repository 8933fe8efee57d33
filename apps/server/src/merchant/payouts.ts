import { randomUUID } from 'node:crypto';
import type { withdrawalSchema } from '@hasta/contracts/merchant';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { LedgerError } from '@hasta/ledger/rules';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Schema } from '../db/schema';
import { SYSTEM_ACCOUNT_ID, uuidFromText } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import { indiaTimeText, notifyOwner } from '../notices/notify-owner';
import { assertStepUp } from '../palm/palm-step-up';
import { isBankAccountOf } from './bank-account-repository';
import { findStore } from './merchant-repository';
import type { MerchantDeps } from './merchant-deps';
import {
  findPayout,
  insertPayout,
  listPayouts,
  markPayout,
  type PayoutListItem,
  type PayoutOutcome,
} from './payout-repository';
import type { SignedInStore, StoreSession } from './signed-in-store';

export type WithdrawalAnswer = z.infer<typeof withdrawalSchema>;

/** Payouts wait for an admin; a week before the reservation lapses. */
export const PAYOUT_TIMEOUT_MS = 7 * 24 * 60 * 60_000;
/** Withdrawal lists hold this many, newest first. */
export const WITHDRAWAL_LIST_LIMIT = 500;

const PAYOUT_NOTICES: Record<PayoutOutcome, { subject: string; tail: string }> = {
  settled: { subject: 'Withdrawal settled', tail: 'was settled to your bank account.' },
  rejected: {
    subject: 'Withdrawal rejected',
    tail: 'was rejected; the amount is back in your store balance.',
  },
  expired: {
    subject: 'Withdrawal expired',
    tail: 'was not settled in time; the amount is back in your store balance.',
  },
};

function toAnswer(payout: PayoutListItem): WithdrawalAnswer {
  return {
    id: payout.id,
    amount: paiseToRupeesText(payout.amountPaise),
    status: payout.status,
    date: payout.createdAt.toISOString(),
    bank_account_last4: payout.bankAccountLast4,
    store_name: payout.storeName,
  };
}

/** The store's withdrawals, newest first. */
export async function storeWithdrawals(
  deps: Pick<MerchantDeps, 'db'>,
  store: SignedInStore,
): Promise<WithdrawalAnswer[]> {
  return (await listPayouts(deps.db, { merchantId: store.id, limit: WITHDRAWAL_LIST_LIMIT })).map(toAnswer);
}

/** Every store's withdrawals, newest first, for the admin. */
export async function allWithdrawals(deps: Pick<MerchantDeps, 'db'>): Promise<WithdrawalAnswer[]> {
  return (await listPayouts(deps.db, { limit: WITHDRAWAL_LIST_LIMIT })).map(toAnswer);
}

/**
 * A withdrawal to one of the store's saved bank accounts: a pending transfer from the store to the system
 * account reserves the amount until an admin settles or rejects it, or PAYOUT_TIMEOUT_MS passes. With an
 * idempotency key the same request is one withdrawal, and the key is bound to its bank account. The session
 * needs the owner's live 'store_withdrawal' step-up (403 stepUpRequired otherwise), and the owner is told
 * on their own phone (else email) once the amount is reserved (issue 23).
 */
export async function requestWithdrawal(
  deps: Pick<MerchantDeps, 'db' | 'ledger' | 'messenger' | 'onNoticeFailed'>,
  store: StoreSession,
  input: { amountPaise: bigint; bankAccountId: string; idempotencyKey: string | undefined },
  now = new Date(),
): Promise<void> {
  await assertStepUp(
    deps.db,
    { userId: store.ownerUserId, sessionId: store.sessionId, purpose: 'store_withdrawal' },
    now,
  );
  if (!(await isBankAccountOf(deps.db, store.id, input.bankAccountId)))
    throw AppError.of('NOT_FOUND', 'bankAccountNotFound');
  try {
    await deps.ledger.transfer({
      id: input.idempotencyKey ? uuidFromText(`payout:${store.id}:${input.idempotencyKey}`) : randomUUID(),
      debitAccountId: store.accountId,
      creditAccountId: SYSTEM_ACCOUNT_ID,
      amountPaise: input.amountPaise,
      kind: 'payout',
      pending: { timeoutMs: PAYOUT_TIMEOUT_MS },
      binds: `bank_account:${input.bankAccountId}`,
      initiatedBy: store.ownerUserId,
      onRecorded: async (trx, transfer) => {
        await insertPayout(trx, {
          id: transfer.id,
          merchantId: store.id,
          bankAccountId: input.bankAccountId,
          amountPaise: input.amountPaise,
        });
      },
    });
  } catch (error) {
    throw toAppError(error, deps.ledger.limits);
  }
  // The reservation is in the ledger: a notice that cannot be sent is logged, never a failed withdrawal.
  await notifyOwner(deps, store.ownerUserId, {
    subject: 'Withdrawal requested',
    body: `A withdrawal of Rs ${paiseToRupeesText(input.amountPaise)} from ${store.storeName} was requested on ${indiaTimeText(now)}. If this was not you, change your password and contact Hasta support now.`,
  }).catch(deps.onNoticeFailed);
}

/**
 * Tells the store about a settled, rejected or expired withdrawal on the channels its settings chose. The
 * decision is already in the ledger: a message that cannot be sent is reported to `onNoticeFailed`, never a
 * failed decision.
 */
async function notifyPayoutDecision(
  deps: Pick<MerchantDeps, 'db' | 'messenger' | 'onNoticeFailed'>,
  merchantId: string,
  amountPaise: bigint,
  outcome: PayoutOutcome,
): Promise<void> {
  const store = await findStore(deps.db, merchantId);
  if (!store) return;
  const notice = PAYOUT_NOTICES[outcome];
  const body = `Your withdrawal of Rs ${paiseToRupeesText(amountPaise)} from ${store.storeName} ${notice.tail}`;
  const sends: Promise<void>[] = [];
  // Only a contact whose code came back: a store notice never goes to an address nobody proved.
  if (store.notifyEmail && store.verifiedContactEmail)
    sends.push(
      deps.messenger.send({
        channel: 'email',
        to: store.verifiedContactEmail,
        subject: notice.subject,
        body,
      }),
    );
  if (store.notifySms && store.verifiedContactPhone)
    sends.push(deps.messenger.send({ channel: 'sms', to: store.verifiedContactPhone, body }));
  for (const result of await Promise.allSettled(sends)) {
    if (result.status === 'rejected') deps.onNoticeFailed(result.reason);
  }
}

/** The withdrawal's row changes in the same transaction as its resolution in the ledger. */
function marking(outcome: PayoutOutcome, resolvedBy: string | null) {
  return (trx: Transaction<Schema>, pending: { id: string }) =>
    markPayout(trx, pending.id, outcome, resolvedBy);
}

/**
 * An admin settles a pending withdrawal (the money leaves to the bank) or rejects it (the money returns to
 * the store), and the store is told. One settled after its timeout is expired at once and refused.
 * Returns what was done.
 */
export async function decidePayout(
  deps: MerchantDeps,
  input: { payoutId: string; action: 'settle' | 'reject'; adminUserId: string },
): Promise<'settled' | 'rejected'> {
  const payout = await findPayout(deps.db, input.payoutId);
  if (!payout) throw AppError.of('NOT_FOUND', 'payoutNotFound');
  if (payout.status === 'expired') throw AppError.of('CONFLICT', 'payoutExpired');
  const outcome = input.action === 'settle' ? 'settled' : 'rejected';
  try {
    await deps.ledger.resolve({
      id: uuidFromText(`payout-decision:${payout.id}`),
      pendingId: payout.id,
      action: outcome === 'settled' ? 'post' : 'void',
      initiatedBy: input.adminUserId,
      onRecorded: marking(outcome, input.adminUserId),
    });
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'pending_expired') {
      // Settled too late: the money goes back to the store now rather than at the next expiry round.
      await deps.pendingExpiry.expireNow(payout.id);
      throw AppError.of('CONFLICT', 'payoutExpired');
    }
    if (error instanceof LedgerError) throw AppError.of('CONFLICT', 'payoutAlreadyResolved');
    throw error;
  }
  await notifyPayoutDecision(deps, payout.merchantId, payout.amountPaise, outcome);
  return outcome;
}

/**
 * A withdrawal nobody settled or rejected within PAYOUT_TIMEOUT_MS is voided by the ledger's expiry round:
 * its row is marked expired in the void's transaction, and the store is told after it committed.
 */
export function registerPayoutExpiry(deps: MerchantDeps): void {
  deps.pendingExpiry.on('payout', {
    inTransaction: marking('expired', null),
    afterCommit: async (pending) => {
      const payout = await findPayout(deps.db, pending.id);
      if (payout) await notifyPayoutDecision(deps, payout.merchantId, pending.amount_paise, 'expired');
    },
  });
}
