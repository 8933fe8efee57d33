import { OTP_MAX_SENDS, OTP_SEND_WINDOW_MS } from '@hasta/contracts/constants';
import type { PalmConfirmation, PalmScan } from '@hasta/contracts/palm';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import { newOtpCode } from '../auth/secrets';
import { uuidFromText } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import type { Messenger } from '../messaging/messenger';
import { notifyOwner, type NoticeDeps } from '../notices/notify-owner';
import {
  closedMessage,
  closePalmPayment,
  palmCodeHash,
  type PalmConfirmationDeps,
} from './palm-payment-confirmation';
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

/** Where an error the caller is not told about is written (the request's logger, as pino's `error`). */
export interface ErrorLog {
  error(details: { err: unknown }, message: string): void;
}

/** What taking a palm payment needs: the palm engine, the ledger, the payment records, a messenger. */
export interface PalmPaymentDeps extends PalmConfirmationDeps {
  palm: Pick<PalmService, 'identify' | 'recordScan' | 'options'>;
  messenger: Pick<Messenger, 'send'>;
  /** The replay guard: a copy of an earlier scan pays nothing (decision 025). */
  replays: Pick<ReplayGuard, 'prepare' | 'refuseReplay'>;
  /** Where the payer is told of a refused replay. */
  notices: NoticeDeps;
  log: ErrorLog;
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
}

export type PalmPaymentOutcome =
  | { kind: 'paid'; transaction: TransactionRecord }
  | { kind: 'awaiting_code'; confirmation: PalmConfirmation };

/** "+919876543210" -> "••••3210"; "asha@example.in" -> "as•••@example.in". */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at < 0) return `••••${address.slice(-4)}`;
  return `${address.slice(0, Math.min(2, at))}•••${address.slice(at)}`;
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

/** "14:05 on 26 Nov", India time: when a notice says something happened. */
export function noticeTime(at: Date): string {
  const zone = { timeZone: 'Asia/Kolkata' } as const;
  const time = new Intl.DateTimeFormat('en-GB', {
    ...zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const day = new Intl.DateTimeFormat('en-GB', { ...zone, day: 'numeric', month: 'short' });
  return `${time.format(at)} on ${day.format(at)}`;
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
    await notifyOwner(deps.notices, match.userId, {
      subject: 'A copied palm scan was refused',
      body:
        `Hasta: a palm scan copying an earlier scan of your palm was refused at ${noticeTime(new Date())}. ` +
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
 * receiving account in one ledger transfer that also records the recognised scan in the payer's history.
 * Up to the palm limit (PALM_MAX_PAYMENT_PAISE) the palm is the only factor. Above it the transfer is
 * pending: a code goes to the payer's own phone (else email), and the payment is posted when the receiver
 * enters it (`confirmPalmPayment`), voided when they cancel, give five wrong codes, or nobody confirms in time.
 */
export async function takePalmPayment(
  deps: PalmPaymentDeps,
  input: PalmPaymentInput,
): Promise<PalmPaymentOutcome> {
  const needsCode = input.amountPaise > deps.palm.options.maxPaymentPaise;
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
  if (!needsCode) {
    try {
      await deps.ledger.transfer({
        ...payment,
        // Inside the transfer's transaction, on its first use only (a retried key is the same payment).
        guard: async (trx) => {
          await deps.replays.refuseReplay(trx, match);
        },
        onRecorded: (trx, transfer) => deps.palm.recordScan(trx, match, transfer.id),
      });
    } catch (error) {
      if (error instanceof ReplayRefusedError) return refusedReplay(deps, input, match);
      throw toAppError(error, deps.ledger.limits);
    }
    return { kind: 'paid', transaction: await deps.payments.transaction(id) };
  }

  const { channel, address } = await deps.payments.payerContact(match.userId);
  const code = newOtpCode();
  let written = false;
  try {
    await deps.ledger.transfer({
      ...payment,
      pending: { timeoutMs: PALM_CONFIRM_TIMEOUT_MS },
      // Inside the transfer's transaction, on its first use only (a retried key sends no second code).
      guard: async (trx) => {
        await deps.replays.refuseReplay(trx, match);
        const sent = await deps.payments
          .within(trx)
          .codesSentSince(match.userId, new Date(Date.now() - OTP_SEND_WINDOW_MS));
        // Codes one payer can be sent for palm payments: as many as OTP sends to one address (spec §9).
        if (sent >= OTP_MAX_SENDS) throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
      },
      onRecorded: async (trx, transfer) => {
        await deps.palm.recordScan(trx, match, transfer.id);
        await deps.payments.within(trx).addConfirmation({
          transferId: transfer.id,
          payerUserId: match.userId,
          receiverUserId: input.receiverUserId,
          channel,
          codeHash: palmCodeHash(deps.codeSecret, transfer.id, code),
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
      sent_to: maskAddress(address),
      amount: transaction.amount,
      expires_at: new Date(confirmation.createdAt.getTime() + PALM_CONFIRM_TIMEOUT_MS).toISOString(),
    },
  };
}
