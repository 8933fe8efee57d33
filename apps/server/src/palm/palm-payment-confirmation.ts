import type { MessageKey } from '@hasta/contracts/messages';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import { LedgerError } from '@hasta/ledger/rules';
import { hashOtp, sameHash } from '../auth/secrets';
import { uuidFromText, type Ledger } from '../ledger/ledger';
import type { ExpiryHandler, PendingExpiry } from '../ledger/pending-expiry';
import { AppError } from '../lib/app-error';
import type {
  PalmConfirmation,
  PalmConfirmationOutcome,
  PalmPaymentRepository,
} from './palm-payment-repository';

/** Wrong codes before the payment is given up (its amount released). */
export const PALM_CONFIRM_MAX_FAILURES = 5;
/** What the payer's code is hashed for (beside the payment's id), so it answers nothing else. */
const CODE_PURPOSE = 'palm_payment';

/** What confirming, cancelling or giving up a waiting palm payment needs. */
export interface PalmConfirmationDeps {
  ledger: Ledger;
  pendingExpiry: PendingExpiry;
  payments: PalmPaymentRepository;
  /** The server's secret the codes are hashed with (COOKIE_SECRET). */
  codeSecret: string;
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
  deps: PalmConfirmationDeps,
  id: string,
  action: 'post' | 'void',
  outcome: PalmConfirmationOutcome,
  initiatedBy?: string,
): Promise<boolean> {
  try {
    await deps.ledger.resolve({
      id: uuidFromText(`palm-payment-${action}:${id}`),
      pendingId: id,
      action,
      initiatedBy,
      onRecorded: (trx, pending) => deps.payments.within(trx).markOutcome(pending.id, outcome),
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

/** The waiting palm payment `id` of this receiver, or 404 (someone else's is not theirs to see). */
async function waitingPayment(
  payments: PalmPaymentRepository,
  receiverUserId: string,
  id: string,
): Promise<PalmConfirmation> {
  const confirmation = await payments.findConfirmation(id, receiverUserId);
  if (!confirmation) throw AppError.of('NOT_FOUND', 'palmPaymentNotFound');
  return confirmation;
}

/**
 * The receiver enters the payer's code: the payment is posted. A wrong code is counted; the fifth voids the
 * payment. A payment already confirmed answers its transaction again.
 */
export async function confirmPalmPayment(
  deps: PalmConfirmationDeps,
  input: { receiverUserId: string; paymentId: string; code: string },
): Promise<TransactionRecord> {
  const { receiverUserId, paymentId: id, code } = input;
  const waiting = await waitingPayment(deps.payments, receiverUserId, id);
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
  if (!(await closePalmPayment(deps, id, 'post', 'paid', receiverUserId))) {
    const now = await waitingPayment(deps.payments, receiverUserId, id);
    if (now.outcome !== 'paid') throw AppError.of('CONFLICT', closedMessage(now.outcome ?? 'cancelled'));
  }
  return deps.payments.transaction(id);
}

/** The receiver cancels a waiting palm payment: nothing is paid. Cancelling twice is not an error. */
export async function cancelPalmPayment(
  deps: PalmConfirmationDeps,
  input: { receiverUserId: string; paymentId: string },
): Promise<void> {
  const { receiverUserId, paymentId: id } = input;
  const waiting = await waitingPayment(deps.payments, receiverUserId, id);
  if (waiting.outcome === 'paid') throw AppError.of('CONFLICT', 'palmPaymentAlreadyConfirmed');
  if (waiting.outcome === 'cancelled') return;
  if (waiting.outcome !== null) throw AppError.of('CONFLICT', closedMessage(waiting.outcome));
  if (!(await closePalmPayment(deps, id, 'void', 'cancelled', receiverUserId))) {
    const now = await waitingPayment(deps.payments, receiverUserId, id);
    if (now.outcome === 'paid') throw AppError.of('CONFLICT', 'palmPaymentAlreadyConfirmed');
  }
}
