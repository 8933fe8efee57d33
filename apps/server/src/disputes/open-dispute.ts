import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import type { PendingExpiry } from '../ledger/pending-expiry';
import { AppError } from '../lib/app-error';
import { indiaTimeText, notifyOwner, type NoticeDeps } from '../notices/notify-owner';
import { closePalmPayment, type ErrorLog } from '../palm/palm-payment-confirmation';
import { notMeTokenHash, rupeesText } from '../palm/palm-payment-notice';
import type { PalmPaymentNoticeRepository } from '../palm/palm-payment-notice-repository';
import type { PalmPaymentRepository } from '../palm/palm-payment-repository';
import type { DisputeRepository, DisputeView } from './dispute-repository';

/**
 * "Not me": the payer of a palm payment reports it, from the notice's one-time link (no login: the token is
 * the authority) or from their History (signed in). Either way palm pay is paused for that person at once
 * (every hand, every device: each palm payment reads the freeze in its own transaction, under the same
 * per-payer lock), their palm payments still waiting for a code are voided, and a dispute is opened for an
 * admin to refund or reject. The payer is told palm pay is paused and how to lift it.
 */

/** What opening a dispute needs. */
export interface OpenDisputeDeps {
  db: Kysely<Schema>;
  ledger: Ledger;
  pendingExpiry: PendingExpiry;
  payments: PalmPaymentRepository;
  notices: PalmPaymentNoticeRepository;
  disputes: DisputeRepository;
  notify: NoticeDeps;
  log: ErrorLog;
}

/** What a "Not me?" link reports, shown before the person confirms. */
export interface NotMePreview {
  amountPaise: bigint;
  payee: string;
  paidAt: Date;
}

/** The payment behind a "Not me?" token still valid now; a token unknown, spent or expired is refused. */
export async function previewNotMe(deps: OpenDisputeDeps, token: string): Promise<NotMePreview> {
  const found = await deps.notices.findToken(notMeTokenHash(token));
  if (!found || found.usedAt !== null || found.expiresAt.getTime() <= deps.ledger.now().getTime())
    throw AppError.of('NOT_FOUND', 'notMeLinkInvalid');
  const facts = await deps.notices.facts(found.transferId);
  if (!facts) throw AppError.of('NOT_FOUND', 'notMeLinkInvalid');
  return { amountPaise: facts.amountPaise, payee: facts.payee, paidAt: facts.createdAt };
}

/** "Not me" from the notice's link: the token is spent (once), palm pay paused, a dispute opened. */
export async function reportNotMe(deps: OpenDisputeDeps, token: string): Promise<DisputeView> {
  return openDispute(deps, 'link', async (trx, now) => {
    const spent = await deps.notices.within(trx).spendToken(notMeTokenHash(token), now);
    if (!spent) throw AppError.of('NOT_FOUND', 'notMeLinkInvalid');
    return spent;
  });
}

/** "Not me" from the signed-in payer's History: only a palm payment they made. */
export async function reportPalmPayment(
  deps: OpenDisputeDeps,
  input: { payerUserId: string; transactionId: string },
): Promise<DisputeView> {
  return openDispute(deps, 'history', async () => ({
    transferId: input.transactionId,
    payerUserId: input.payerUserId,
  }));
}

/** The signed-in payer's disputes, newest first. */
export function listOwnDisputes(deps: Pick<OpenDisputeDeps, 'disputes'>, payerUserId: string) {
  return deps.disputes.listOfPayer(payerUserId);
}

async function openDispute(
  deps: OpenDisputeDeps,
  via: 'link' | 'history',
  reported: (trx: Transaction<Schema>, now: Date) => Promise<{ transferId: string; payerUserId: string }>,
): Promise<DisputeView> {
  const now = deps.ledger.now();
  const opened = await deps.db
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx) => {
      const { transferId, payerUserId } = await reported(trx, now);
      const disputes = deps.disputes.within(trx);
      const payment = await disputes.reportablePayment(transferId);
      if (!payment || payment.payerUserId !== payerUserId || !payment.movedMoney)
        throw AppError.of('FORBIDDEN', 'disputeNotPalmPayment');
      // Under the payer's palm payment lock: a palm payment of theirs either committed before this, or reads
      // the freeze and pays nothing.
      await deps.payments.within(trx).lockPayer(payerUserId);
      await disputes.freeze(payerUserId, now);
      const id = await disputes.open({
        transferId,
        payerUserId,
        openedVia: via,
        device: payment.device,
        similarity: payment.similarity,
        now,
      });
      // The whole report rolls back (a link's token stays unspent): the payment is already reported.
      if (id === undefined) throw AppError.of('CONFLICT', 'disputeAlreadyOpen');
      return { id, payerUserId };
    });
  await voidWaitingPayments(deps, opened.payerUserId);
  const dispute = await deps.disputes.find(opened.id);
  if (!dispute) throw new Error(`dispute ${opened.id} is missing after it was opened`);
  try {
    await notifyOwner(deps.notify, opened.payerUserId, {
      subject: 'Palm pay is paused on your Hasta account',
      body:
        `Hasta: you reported the palm payment of ${rupeesText(dispute.amountPaise)} to ${dispute.payee} on ` +
        `${indiaTimeText(dispute.paidAt)} as not you. Palm pay is paused for your account: no palm can pay ` +
        'from it. We are looking into the payment. To turn palm pay on again, open the Consent tab in Hasta ' +
        'and confirm it is you with the fresh code we send you.',
    });
  } catch (error) {
    deps.log.error({ err: error }, 'palm pay paused notice not sent');
  }
  return dispute;
}

/** Voids the payer's palm payments still waiting for a code (their confirmation would refuse them anyway). */
async function voidWaitingPayments(deps: OpenDisputeDeps, payerUserId: string): Promise<void> {
  for (const id of await deps.disputes.waitingPaymentsOf(payerUserId)) {
    try {
      await closePalmPayment(deps, id, 'void', 'failed');
    } catch (error) {
      // Past its timeout, or resolved meanwhile: the expiry round or the resolution has it.
      deps.log.error({ err: error }, 'waiting palm payment of a frozen payer not voided');
    }
  }
}
