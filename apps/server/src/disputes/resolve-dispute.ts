import type { RewardsBook } from '../rewards/rewards-book';
import { LedgerError } from '@hasta/ledger/rules';
import { isUniqueViolation } from '../db/errors';
import { LOSSES_ACCOUNT_ID, uuidFromText, type Ledger } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import type { ErrorLog } from '../palm/palm-payment-confirmation';
import { indiaTimeText, notifyOwner, type NoticeDeps } from '../notices/notify-owner';
import { rupeesText } from '../palm/palm-payment-notice';
import type { DisputeRepository, DisputeView, ReportablePayment } from './dispute-repository';

/**
 * An admin closes a dispute once: a refund (a ledger reversal of the payment, from the payee's account when
 * it still covers the amount, else from the losses account, so the books always balance) or a rejection with
 * a reason. Two admins racing: the dispute's status changes in the refund's own transaction, only while it is
 * open, so one wins and the other is told it is closed. The payer is told the outcome.
 */

export interface ResolveDisputeDeps {
  ledger: Pick<Ledger, 'transfer' | 'limits' | 'now'>;
  disputes: DisputeRepository;
  notify: NoticeDeps;
  log: ErrorLog;
  /** The refunded payment's points go back in the refund's transaction (issue 24). */
  rewards: Pick<RewardsBook, 'paymentReversed'>;
}

export type DisputeResolution = { action: 'refund' } | { action: 'reject'; reason: string };

/** Every dispute, open ones first (the admin's Disputes tab). */
export function listAllDisputes(deps: Pick<ResolveDisputeDeps, 'disputes'>): Promise<DisputeView[]> {
  return deps.disputes.listAll();
}

export async function resolveDispute(
  deps: ResolveDisputeDeps,
  input: { adminId: string; disputeId: string; resolution: DisputeResolution },
): Promise<DisputeView> {
  const dispute = await deps.disputes.find(input.disputeId);
  if (!dispute) throw AppError.of('NOT_FOUND', 'disputeNotFound');
  if (dispute.status !== 'open') throw AppError.of('CONFLICT', 'disputeClosed');
  const now = deps.ledger.now();
  if (input.resolution.action === 'refund') {
    await refund(deps, dispute, input.adminId, now);
  } else if (
    !(await deps.disputes.markRejected(dispute.id, {
      reason: input.resolution.reason,
      adminId: input.adminId,
      now,
    }))
  ) {
    throw AppError.of('CONFLICT', 'disputeClosed');
  }
  const resolved = await deps.disputes.find(dispute.id);
  if (!resolved) throw new Error(`dispute ${dispute.id} is missing after it was resolved`);
  await tellPayer(deps, resolved);
  return resolved;
}

async function refund(deps: ResolveDisputeDeps, dispute: DisputeView, adminId: string, now: Date) {
  const payment = await deps.disputes.reportablePayment(dispute.transferId);
  if (!payment) throw new Error(`disputed palm payment ${dispute.transferId} is missing`);
  try {
    let written: boolean;
    try {
      written = await refundFrom(deps, 'payee', dispute.id, payment, adminId, now);
    } catch (error) {
      // The payee already spent it: the loss is the operator's, and the payer is made whole all the same.
      if (!(error instanceof LedgerError && error.code === 'insufficient_funds')) throw error;
      written = await refundFrom(deps, 'losses', dispute.id, payment, adminId, now);
    }
    // The same refund answered again (another admin's, already written): not this call's.
    if (!written) throw AppError.of('CONFLICT', 'disputeClosed');
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The payment was reversed another way (an admin's delete): the unique reverses_id lets one through.
    if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'transactionAlreadyReversed');
    throw toAppError(error, deps.ledger.limits);
  }
}

/** One refund transfer; true when this call wrote it (and closed the dispute with it). */
async function refundFrom(
  deps: ResolveDisputeDeps,
  from: 'payee' | 'losses',
  disputeId: string,
  payment: ReportablePayment,
  adminId: string,
  now: Date,
): Promise<boolean> {
  let written = false;
  await deps.ledger.transfer({
    id: uuidFromText(`palm-dispute-refund:${from}:${disputeId}`),
    debitAccountId: from === 'payee' ? payment.creditAccountId : LOSSES_ACCOUNT_ID,
    creditAccountId: payment.debitAccountId,
    amountPaise: payment.amountPaise,
    kind: 'reversal',
    reversesId: payment.transferId,
    initiatedBy: adminId,
    onRecorded: async (trx, transfer) => {
      const closed = await deps.disputes
        .within(trx)
        .markRefunded(disputeId, { from, transferId: transfer.id, adminId, now });
      // Rejected meanwhile: the refund rolls back with this.
      if (!closed) throw AppError.of('CONFLICT', 'disputeClosed');
      await deps.rewards.paymentReversed(trx, payment.transferId);
      written = true;
    },
  });
  return written;
}

async function tellPayer(deps: ResolveDisputeDeps, dispute: DisputeView): Promise<void> {
  const payment =
    `the palm payment of ${rupeesText(dispute.amountPaise)} to ${dispute.payee} on ` +
    `${indiaTimeText(dispute.paidAt)}`;
  const body =
    dispute.status === 'refunded'
      ? `Hasta: we looked into ${payment} you reported. ${rupeesText(dispute.amountPaise)} is back in your wallet.`
      : `Hasta: we looked into ${payment} you reported and did not refund it. Reason: ${dispute.reason ?? ''}`;
  try {
    await notifyOwner(deps.notify, dispute.payerUserId, {
      subject: dispute.status === 'refunded' ? 'Your Hasta palm payment was refunded' : 'Your Hasta report',
      body,
    });
  } catch (error) {
    deps.log.error({ err: error }, 'dispute outcome notice not sent');
  }
}
