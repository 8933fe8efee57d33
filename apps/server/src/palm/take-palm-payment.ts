import { OTP_MAX_SENDS, OTP_SEND_WINDOW_MS } from '@hasta/contracts/constants';
import type { PalmConfirmation, PalmScan } from '@hasta/contracts/palm';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { Transaction } from 'kysely';
import { newOtpCode } from '../auth/secrets';
import type { PalmCodeReason, Schema } from '../db/schema';
import type { PalmPayLimits } from '../env';
import { uuidFromText } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import type { Messenger } from '../messaging/messenger';
import { indiaTimeText, maskPayerAddress, notifyOwner } from '../notices/notify-owner';
import {
  closedMessage,
  closePalmPayment,
  palmCodeHash,
  sendNoticeOrLeaveItToTheRound,
  type PalmConfirmationDeps,
} from './palm-payment-confirmation';
import { writePaymentNotice } from './palm-payment-notice';
import { PalmNotRecognisedError, type PalmMatch, type PalmService } from './palm-service';
import { ReplayRefusedError, type ReplayGuard } from './replay-guard';

/**
 * Unrecognised scans per receiving account: at most 5 in 15 minutes and 20 in a day. Identification tells
 * whoever can sign in whether a palm belongs to someone, and each search has a small false-positive rate,
 * so trying palm after palm must stay slow (as failed OTPs are).
 */
export const PALM_FAILURE_LIMITS = [
  { count: 5, window_ms: 15 * 60_000 },
  { count: 20, window_ms: 24 * 60 * 60_000 },
] as const;

/** How long a palm payment above the palm limit waits for the payer's code. */
export const PALM_CONFIRM_TIMEOUT_MS = 5 * 60_000;

/**
 * What taking a palm payment needs: the palm engine, the ledger, the payment records and notices, a
 * messenger, the per-payer limits of palm-alone payments.
 */
export interface PalmPaymentDeps extends PalmConfirmationDeps {
  palm: Pick<PalmService, 'identify' | 'recordScan' | 'options'>;
  messenger: Pick<Messenger, 'send'>;
  limits: PalmPayLimits;
  /** The replay guard: a copy of an earlier scan pays nothing (decision 025). */
  replays: Pick<ReplayGuard, 'prepare' | 'refuseReplay'>;
}

export interface PalmPaymentInput {
  scan: PalmScan;
  amountPaise: bigint;
  /** Who takes the payment (a person, or a store's owner): never the payer. */
  receiverUserId: string;
  /** The receiving account: the receiver's wallet or their store's. */
  creditAccountId: string;
  /** The caller's Idempotency-Key: the same key from the same receiver is the same payment. */
  idempotencyKey: string | undefined;
  /** The site's origin for the payer's "Not me?" link. */
  linkOrigin: string;
  /** Where the scan was taken, as far as it is known (the receiving session's user agent, shortened). */
  device: string | null;
  /**
   * The paired device that took the scan, its signed challenge already checked (issue 22). Every route
   * passes one; null only for tools and tests that call the use case directly.
   */
  deviceId: string | null;
}

export type PalmPaymentOutcome =
  | { kind: 'paid'; transaction: TransactionRecord }
  | { kind: 'awaiting_code'; confirmation: PalmConfirmation };

/**
 * A palm-alone payment past a limit: not a failure. Thrown from the guard (the transaction, the id's claim
 * included, rolls back), the payment then waits for the payer's code.
 */
class PalmCodeNeeded extends Error {
  constructor(readonly reason: Exclude<PalmCodeReason, 'amount'>) {
    super(`palm payment needs the payer's code: ${reason}`);
  }
}

/**
 * Runs inside a palm payment's transaction, before anything is written (both ways: palm alone, or waiting
 * for the payer's code). Throwing rolls the payment back.
 */
async function guardPalmPayment(
  deps: PalmPaymentDeps,
  trx: Transaction<Schema>,
  match: PalmMatch,
  payment: { palmAlone: boolean; amountPaise: bigint },
): Promise<void> {
  const payments = deps.payments.within(trx);
  // 1. One palm payment (or freeze) of this payer at a time, until this transaction ends: what the checks
  //    below read includes every payment of theirs committed before, and none can slip in beside this one.
  await payments.lockPayer(match.userId);
  // 2. A copy of an earlier scan of this person pays nothing (decision 025); a fresh one is remembered.
  await deps.replays.refuseReplay(trx, match);
  // 3. Palm pay paused by "Not me": nothing is paid, not even with a code.
  if (await payments.isFrozen(match.userId)) throw AppError.of('FORBIDDEN', 'palmPayFrozen');
  const now = deps.ledger.now();
  if (!payment.palmAlone) {
    // Codes one payer can be sent for palm payments: as many as OTP sends to one address (spec §9).
    const sent = await payments.codesSentSince(match.userId, new Date(now.getTime() - OTP_SEND_WINDOW_MS));
    if (sent >= OTP_MAX_SENDS) throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
    return;
  }
  // 4. The palm-alone limits: a palm enrolled just now, the hour's count, the day's sum. Past any: the code.
  const { limits } = deps;
  const enrolledAt = await payments.templateEnrolledAt(match.templateId);
  if (enrolledAt === undefined || now.getTime() - enrolledAt.getTime() < limits.newEnrolmentHoldMs)
    throw new PalmCodeNeeded('new_palm');
  const hour = await payments.palmAloneSince(match.userId, new Date(now.getTime() - 3_600_000));
  if (hour.count >= limits.hourlyPayments) throw new PalmCodeNeeded('hourly');
  const day = await payments.palmAloneSince(match.userId, new Date(now.getTime() - 24 * 3_600_000));
  if (day.amountPaise + payment.amountPaise > limits.dailyLimitPaise) throw new PalmCodeNeeded('daily');
}

async function checkScanFailures(deps: PalmPaymentDeps, receiverUserId: string): Promise<void> {
  const longest = Math.max(...PALM_FAILURE_LIMITS.map((limit) => limit.window_ms));
  const failures = await deps.payments.scanFailuresSince(receiverUserId, new Date(Date.now() - longest));
  const now = Date.now();
  for (const limit of PALM_FAILURE_LIMITS) {
    const recent = failures.filter((at) => now - at.getTime() < limit.window_ms).length;
    if (recent >= limit.count) throw AppError.of('RATE_LIMITED', 'palmTooManyFailures');
  }
}

/**
 * A refused replay: the receiver hears what an unrecognised palm gets (not that the palm matched), it counts
 * as their failed scan, and the payer is told, with no palm data and nothing of the receiver.
 */
async function refusedReplay(
  deps: PalmPaymentDeps,
  input: PalmPaymentInput,
  match: PalmMatch,
): Promise<never> {
  await deps.payments.recordScanFailure(input.receiverUserId);
  try {
    await notifyOwner(deps.notify, match.userId, {
      subject: 'A copied palm scan was refused',
      body:
        `Hasta: a palm scan copying an earlier scan of your palm was refused on ${indiaTimeText(new Date())}. ` +
        'Nothing was paid. If this keeps happening, pause palm pay from your dashboard.',
    });
  } catch (error) {
    // The refusal stands whether or not the notice could be sent.
    deps.log.error({ err: error }, 'palm replay notice not sent');
  }
  throw new PalmNotRecognisedError();
}

/**
 * A palm payment: the palm names the payer (1:N), and the money moves from the payer's wallet to the
 * receiving account in one ledger transfer that also records the recognised scan in the payer's history and
 * the payer's notice. Within the payer's limits (per payment PALM_MAX_PAYMENT_PAISE, per rolling day and
 * hour, not a palm enrolled within the hold) the palm is the only factor. Past any of them the transfer is
 * pending: a code goes to the payer's own phone (else email), and the payment is posted when the receiver
 * enters it (`confirmPalmPayment`), voided when they cancel, give five wrong codes, or nobody confirms in
 * time. A payer whose palm pay is paused ("Not me") pays neither way.
 */
export async function takePalmPayment(
  deps: PalmPaymentDeps,
  input: PalmPaymentInput,
): Promise<PalmPaymentOutcome> {
  await checkScanFailures(deps, input.receiverUserId);
  let match;
  try {
    match = await deps.palm.identify(input.scan);
  } catch (error) {
    if (error instanceof PalmNotRecognisedError) await deps.payments.recordScanFailure(input.receiverUserId);
    throw error;
  }
  if (match.userId === input.receiverUserId) throw AppError.of('BAD_REQUEST', 'palmSelfPayment');
  // The replay check's heavy part, outside the payment's transaction (its decision is made inside).
  await deps.replays.prepare(match);
  const id = input.idempotencyKey
    ? uuidFromText(`palm:${input.receiverUserId}:${input.idempotencyKey}`)
    : crypto.randomUUID();
  const payment = {
    id,
    debitAccountId: await deps.ledger.ensureUserAccount(match.userId),
    creditAccountId: input.creditAccountId,
    amountPaise: input.amountPaise,
    kind: 'payment' as const,
    initiatedBy: input.receiverUserId,
  };
  const record = (trx: Transaction<Schema>, transferId: string, palmAlone: boolean) =>
    deps.payments.within(trx).addPalmPayment({
      transferId,
      payerUserId: match.userId,
      receiverUserId: input.receiverUserId,
      amountPaise: input.amountPaise,
      palmAlone,
      device: input.device,
      deviceId: input.deviceId,
      createdAt: deps.ledger.now(),
    });

  let reason: PalmCodeReason | undefined =
    input.amountPaise > deps.palm.options.maxPaymentPaise ? 'amount' : undefined;
  // A key that already waits for a code is that payment again (its transfer is pending, not palm-alone).
  const waiting = input.idempotencyKey ? await deps.payments.findConfirmation(id) : undefined;
  if (reason === undefined && waiting === undefined) {
    let token: string | undefined;
    try {
      await deps.ledger.transfer({
        ...payment,
        guard: (trx) =>
          guardPalmPayment(deps, trx, match, { palmAlone: true, amountPaise: input.amountPaise }),
        onRecorded: async (trx, transfer) => {
          await deps.palm.recordScan(trx, match, transfer.id);
          await record(trx, transfer.id, true);
          token = await writePaymentNotice(deps.notices, trx, {
            transferId: transfer.id,
            payerUserId: match.userId,
            linkOrigin: input.linkOrigin,
            now: deps.ledger.now(),
          });
          // The payer's points, in the payment's own transaction (issue 24).
          await deps.rewards.palmPaymentMade(trx, { paymentId: transfer.id, payerUserId: match.userId });
        },
      });
    } catch (error) {
      if (error instanceof ReplayRefusedError) return refusedReplay(deps, input, match);
      if (!(error instanceof PalmCodeNeeded)) throw toAppError(error, deps.ledger.limits);
      reason = error.reason;
    }
    if (reason === undefined) {
      if (token !== undefined) await sendNoticeOrLeaveItToTheRound(deps, id, token);
      return { kind: 'paid', transaction: await deps.payments.transaction(id) };
    }
  }
  return awaitPayerCode(deps, input, { match, payment, reason: reason ?? 'amount', record });
}

/** The palm payment waits for the payer's code: a pending transfer, and the code to the payer. */
async function awaitPayerCode(
  deps: PalmPaymentDeps,
  input: PalmPaymentInput,
  context: {
    match: PalmMatch;
    payment: Parameters<PalmPaymentDeps['ledger']['transfer']>[0];
    reason: PalmCodeReason;
    record: (trx: Transaction<Schema>, transferId: string, palmAlone: boolean) => Promise<void>;
  },
): Promise<PalmPaymentOutcome> {
  const { match, payment, reason } = context;
  const id = payment.id;
  const { channel, address } = await deps.payments.payerContact(match.userId);
  const code = newOtpCode();
  let written = false;
  try {
    await deps.ledger.transfer({
      ...payment,
      pending: { timeoutMs: PALM_CONFIRM_TIMEOUT_MS },
      // Inside the transfer's transaction, on its first use only (a retried key sends no second code).
      guard: (trx) =>
        guardPalmPayment(deps, trx, match, { palmAlone: false, amountPaise: input.amountPaise }),
      onRecorded: async (trx, transfer) => {
        await deps.palm.recordScan(trx, match, transfer.id);
        await context.record(trx, transfer.id, false);
        await deps.payments.within(trx).addConfirmation({
          transferId: transfer.id,
          payerUserId: match.userId,
          receiverUserId: input.receiverUserId,
          channel,
          codeHash: palmCodeHash(deps.codeSecret, transfer.id, code),
          reason,
        });
        written = true;
      },
    });
  } catch (error) {
    if (error instanceof ReplayRefusedError) return refusedReplay(deps, input, match);
    throw toAppError(error, deps.ledger.limits);
  }
  const transaction = await deps.payments.transaction(id);
  if (written) {
    const receiver = transaction.to_user_email ?? 'a Hasta account';
    const body =
      `Hasta: ${code} is the code for a palm payment of Rs ${transaction.amount} to ${receiver}. ` +
      `Give it only to the person taking this payment. It expires in ${PALM_CONFIRM_TIMEOUT_MS / 60_000} minutes.`;
    try {
      await deps.messenger.send(
        channel === 'sms'
          ? { channel, to: address, body }
          : { channel, to: address, subject: 'Your Hasta palm payment code', body },
      );
    } catch (error) {
      // No code, no payment: the reserved amount goes back at once.
      deps.log.error({ err: error }, 'palm payment code not sent');
      await closePalmPayment(deps, id, 'void', 'failed');
      throw AppError.of('INTERNAL', 'failedToSendOtpRetry');
    }
  }
  const confirmation = await deps.payments.findConfirmation(id);
  if (!confirmation) throw new Error(`palm payment ${id} has no confirmation after it was written`);
  if (confirmation.outcome === 'paid') return { kind: 'paid', transaction };
  if (confirmation.outcome !== null) throw AppError.of('CONFLICT', closedMessage(confirmation.outcome));
  return {
    kind: 'awaiting_code',
    confirmation: {
      id,
      channel: confirmation.channel,
      // Shown to the receiver: the payer masked as everywhere a receiver sees them.
      sent_to: maskPayerAddress(address),
      amount: transaction.amount,
      expires_at: new Date(confirmation.createdAt.getTime() + PALM_CONFIRM_TIMEOUT_MS).toISOString(),
      reason: confirmation.reason,
    },
  };
}
