import type { RewardsBook } from '../rewards/rewards-book';
import type { MessageKey } from '@hasta/contracts/messages';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import { LedgerError } from '@hasta/ledger/rules';
import { hashOtp, sameHash } from '../auth/secrets';
import type { Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { uuidFromText, type Ledger, type TransferRecord } from '../ledger/ledger';
import type { ExpiryHandler, PendingExpiry } from '../ledger/pending-expiry';
import { AppError } from '../lib/app-error';
import type { NoticeDeps } from '../notices/notify-owner';
import { sendPaymentNotice, writePaymentNotice } from './palm-payment-notice';
import type { PalmPaymentNoticeRepository } from './palm-payment-notice-repository';
import type {
  PalmConfirmation,
  PalmConfirmationOutcome,
  PalmPaymentRepository,
} from './palm-payment-repository';

/** Wrong codes before the payment is given up (its amount released). */
export const PALM_CONFIRM_MAX_FAILURES = 5;
/** What the payer's code is hashed for (beside the payment's id), so it answers nothing else. */
const CODE_PURPOSE = 'palm_payment';

/** Where an error the caller is not told about is written (the request's logger, as pino's `error`). */
export interface ErrorLog {
  error(details: { err: unknown }, message: string): void;
}

/** What confirming, cancelling or giving up a waiting palm payment needs. */
export interface PalmConfirmationDeps {
  ledger: Ledger;
  pendingExpiry: PendingExpiry;
  payments: PalmPaymentRepository;
  /** The server's secret the codes are hashed with (COOKIE_SECRET). */
  codeSecret: string;
  /** The payer's notices of palm payments that moved money, and how they are sent. */
  notices: PalmPaymentNoticeRepository;
  notify: NoticeDeps;
  log: ErrorLog;
  /** The rewards programme: a palm payment's points, in its transaction (issue 24). */
  rewards: Pick<RewardsBook, 'palmPaymentMade'>;
}

type ClosedOutcome = Exclude<PalmConfirmationOutcome, 'paid'>;

/** The payer's code for payment `transferId` as it is stored. */
export function palmCodeHash(codeSecret: string, transferId: string, code: string): string {
  return hashOtp(codeSecret, CODE_PURPOSE, transferId, code);
}

export function closedMessage(outcome: ClosedOutcome): MessageKey {
  return outcome === 'expired' ? 'palmPaymentExpired' : 'palmPaymentClosed';
}

/** A waiting palm payment the expiry round voids is marked expired in the same transaction. */
export function palmPaymentExpiry(payments: PalmPaymentRepository): ExpiryHandler {
  return {
    inTransaction: (trx, pending) => payments.within(trx).markOutcome(pending.id, 'expired'),
  };
}

/** Posts or voids a waiting palm payment once, marking its outcome with it; false when already resolved. */
export async function closePalmPayment(
  deps: Pick<PalmConfirmationDeps, 'ledger' | 'payments' | 'pendingExpiry'>,
  id: string,
  action: 'post' | 'void',
  outcome: PalmConfirmationOutcome,
  initiatedBy?: string,
  inTransaction: {
    guard?: (trx: Transaction<Schema>) => Promise<void>;
    onRecorded?: (trx: Transaction<Schema>, pending: TransferRecord) => Promise<void>;
  } = {},
): Promise<boolean> {
  try {
    await deps.ledger.resolve({
      id: uuidFromText(`palm-payment-${action}:${id}`),
      pendingId: id,
      action,
      initiatedBy,
      guard: inTransaction.guard,
      onRecorded: async (trx, pending) => {
        await deps.payments.within(trx).markOutcome(pending.id, outcome);
        await inTransaction.onRecorded?.(trx, pending);
      },
    });
    return true;
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'pending_resolved') return false;
    if (error instanceof LedgerError && error.code === 'pending_expired') {
      await deps.pendingExpiry.expireNow(id);
      throw AppError.of('CONFLICT', 'palmPaymentExpired');
    }
    throw error;
  }
}

/**
 * Sends the payer's notice of a palm payment that moved money, right after its transaction committed. A
 * failure is logged and left to the expiry round (the notice was written with the payment): the payment
 * stands.
 */
export async function sendNoticeOrLeaveItToTheRound(
  deps: Pick<PalmConfirmationDeps, 'notices' | 'notify' | 'log' | 'ledger'>,
  transferId: string,
  token: string,
): Promise<void> {
  try {
    await sendPaymentNotice(deps, transferId, token, deps.ledger.now());
  } catch (error) {
    deps.log.error({ err: error }, 'palm payment notice not sent; the expiry round sends it again');
  }
}

/** The waiting palm payment `id` of this receiver, or 404 (someone else's is not theirs to see). */
async function waitingPayment(
  payments: PalmPaymentRepository,
  receiverUserId: string,
  id: string,
  deviceId?: string,
): Promise<PalmConfirmation> {
  const confirmation = await payments.findConfirmation(id, receiverUserId, deviceId);
  if (!confirmation) throw AppError.of('NOT_FOUND', 'palmPaymentNotFound');
  return confirmation;
}

/**
 * The receiver enters the payer's code: the payment is posted. A wrong code is counted; the fifth voids the
 * payment. A payment already confirmed answers its transaction again.
 */
export async function confirmPalmPayment(
  deps: PalmConfirmationDeps,
  input: {
    receiverUserId: string;
    /** A store's terminal finishing it alone: only a payment it took itself. */
    deviceId?: string;
    paymentId: string;
    code: string;
    /** The site's origin for the payer's "Not me?" link. */
    linkOrigin: string;
  },
): Promise<TransactionRecord> {
  const { receiverUserId, paymentId: id, code } = input;
  const waiting = await waitingPayment(deps.payments, receiverUserId, id, input.deviceId);
  if (waiting.outcome === 'paid') return deps.payments.transaction(id);
  if (waiting.outcome !== null) throw AppError.of('CONFLICT', closedMessage(waiting.outcome));
  if (!sameHash(palmCodeHash(deps.codeSecret, id, code), waiting.codeHash)) {
    const failedAttempts = await deps.payments.countWrongCode(id);
    if (failedAttempts !== undefined && failedAttempts >= PALM_CONFIRM_MAX_FAILURES) {
      await closePalmPayment(deps, id, 'void', 'failed', receiverUserId);
      throw AppError.of('RATE_LIMITED', 'tooManyAttempts');
    }
    throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  }
  let token: string | undefined;
  let frozen = false;
  let posted: boolean;
  try {
    posted = await closePalmPayment(deps, id, 'post', 'paid', receiverUserId, {
      // Under the payer's palm payment lock, as every palm payment: paused by "Not me" meanwhile, no payment.
      guard: async (trx) => {
        const payments = deps.payments.within(trx);
        await payments.lockPayer(waiting.payerUserId);
        if (await payments.isFrozen(waiting.payerUserId)) {
          frozen = true;
          throw AppError.of('FORBIDDEN', 'palmPayFrozen');
        }
      },
      onRecorded: async (trx, pending) => {
        token = await writePaymentNotice(deps.notices, trx, {
          transferId: pending.id,
          payerUserId: waiting.payerUserId,
          linkOrigin: input.linkOrigin,
          now: deps.ledger.now(),
        });
        await deps.rewards.palmPaymentMade(trx, { paymentId: pending.id, payerUserId: waiting.payerUserId });
      },
    });
  } catch (error) {
    if (frozen) await closePalmPayment(deps, id, 'void', 'failed', receiverUserId);
    throw error;
  }
  if (!posted) {
    const now = await waitingPayment(deps.payments, receiverUserId, id);
    if (now.outcome !== 'paid') throw AppError.of('CONFLICT', closedMessage(now.outcome ?? 'cancelled'));
  }
  if (token !== undefined) await sendNoticeOrLeaveItToTheRound(deps, id, token);
  return deps.payments.transaction(id);
}

/** The receiver cancels a waiting palm payment: nothing is paid. Cancelling twice is not an error. */
export async function cancelPalmPayment(
  deps: PalmConfirmationDeps,
  input: { receiverUserId: string; deviceId?: string; paymentId: string },
): Promise<void> {
  const { receiverUserId, paymentId: id } = input;
  const waiting = await waitingPayment(deps.payments, receiverUserId, id, input.deviceId);
  if (waiting.outcome === 'paid') throw AppError.of('CONFLICT', 'palmPaymentAlreadyConfirmed');
  if (waiting.outcome === 'cancelled') return;
  if (waiting.outcome !== null) throw AppError.of('CONFLICT', closedMessage(waiting.outcome));
  if (!(await closePalmPayment(deps, id, 'void', 'cancelled', receiverUserId))) {
    const now = await waitingPayment(deps.payments, receiverUserId, id);
    if (now.outcome === 'paid') throw AppError.of('CONFLICT', 'palmPaymentAlreadyConfirmed');
  }
}
