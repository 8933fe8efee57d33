import { OTP_MAX_SENDS, OTP_SEND_WINDOW_MS } from '@hasta/contracts/constants';
import { messages, type MessageKey } from '@hasta/contracts/messages';
import type { PalmConfirmation, PalmScan } from '@hasta/contracts/palm';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LedgerError } from '@hasta/ledger/rules';
import type { Transaction } from 'kysely';
import { hashOtp, newOtpCode, sameHash } from '../auth/secrets';
import type { Schema } from '../db/schema';
import { uuidFromText } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { listTransfers, toTransactionRecord } from '../ledger/queries';
import { AppError } from '../lib/app-error';
import { idempotencyKey } from '../routes/support/idempotency-key';

/**
 * Unrecognised scans per receiving account: at most 5 in 15 minutes and 20 in a day. Identification tells
 * whoever can sign in whether a palm belongs to someone, and each search has a small false-positive rate,
 * so trying palm after palm must stay slow (as failed OTPs are).
 */
export const PALM_FAILURE_LIMITS = [
  { count: 5, window_ms: 15 * 60_000 },
  { count: 20, window_ms: 24 * 60 * 60_000 },
] as const;

async function checkScanFailures(app: FastifyInstance, receiverUserId: string): Promise<void> {
  const longest = Math.max(...PALM_FAILURE_LIMITS.map((limit) => limit.window_ms));
  const rows = await app.database.db
    .selectFrom('palm_scan_failures')
    .select('created_at')
    .where('receiver_user_id', '=', receiverUserId)
    .where('created_at', '>', new Date(Date.now() - longest))
    .execute();
  const now = Date.now();
  for (const limit of PALM_FAILURE_LIMITS) {
    const recent = rows.filter((row) => now - new Date(row.created_at).getTime() < limit.window_ms).length;
    if (recent >= limit.count) throw AppError.of('RATE_LIMITED', 'palmTooManyFailures');
  }
}

/** A scan is up to 5 frames of 21.8 kB of base64 each: more than the API's default body limit. */
export const PALM_BODY_LIMIT_BYTES = 160 * 1024;

/** How long a palm payment above the palm limit waits for the payer's code. */
export const PALM_CONFIRM_TIMEOUT_MS = 5 * 60_000;
/** Wrong codes before the payment is given up (its amount released). */
export const PALM_CONFIRM_MAX_FAILURES = 5;
const CODE_PURPOSE = 'palm_payment';

export type PalmPaymentOutcome =
  | { kind: 'paid'; transaction: TransactionRecord }
  | { kind: 'awaiting_code'; confirmation: PalmConfirmation };

/** "+919876543210" -> "••••3210"; "asha@example.in" -> "as•••@example.in". */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at < 0) return `••••${address.slice(-4)}`;
  return `${address.slice(0, Math.min(2, at))}•••${address.slice(at)}`;
}

async function transactionOf(app: FastifyInstance, transferId: string): Promise<TransactionRecord> {
  const [view] = await listTransfers(app.database.db, { transferId, limit: 1, includeReversed: true });
  if (!view) throw new Error(`palm payment ${transferId} is missing after it was written`);
  return toTransactionRecord(view, view.credit_account_id);
}

/**
 * A palm payment: the palm names the payer (1:N), and the money moves from the payer's wallet to the
 * receiving account in one ledger transfer that also records the recognised scan in the payer's history.
 * Up to PALM_MAX_PAYMENT_PAISE the palm is the only factor. Above it the transfer is pending: a code goes to
 * the payer's own phone (else email), and the payment is posted when the receiver enters it
 * (`confirmPalmPayment`), voided when they cancel, give five wrong codes, or nobody confirms in time.
 */
export async function takePalmPayment(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { scan: PalmScan; amountPaise: bigint; receiverUserId: string; creditAccountId: string },
): Promise<PalmPaymentOutcome> {
  const needsCode = input.amountPaise > app.palm.options.maxPaymentPaise;
  await checkScanFailures(app, input.receiverUserId);
  let match;
  try {
    match = await app.palm.identify(input.scan);
  } catch (error) {
    if (error instanceof AppError && error.message === messages.palmNotRecognised) {
      await app.database.db
        .insertInto('palm_scan_failures')
        .values({ receiver_user_id: input.receiverUserId })
        .execute();
    }
    throw error;
  }
  if (match.userId === input.receiverUserId) throw AppError.of('BAD_REQUEST', 'palmSelfPayment');
  const key = idempotencyKey(request);
  const id = key ? uuidFromText(`palm:${input.receiverUserId}:${key}`) : crypto.randomUUID();
  const payment = {
    id,
    debitAccountId: await app.ledger.ensureUserAccount(match.userId),
    creditAccountId: input.creditAccountId,
    amountPaise: input.amountPaise,
    kind: 'payment' as const,
    initiatedBy: input.receiverUserId,
  };
  if (!needsCode) {
    try {
      await app.ledger.transfer({
        ...payment,
        onRecorded: (trx, transfer) => app.palm.recordScan(trx, match, transfer.id),
      });
    } catch (error) {
      throw toAppError(error, app.ledger.limits);
    }
    return { kind: 'paid', transaction: await transactionOf(app, id) };
  }

  const db = app.database.db;
  const payer = await db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('id', '=', match.userId)
    .executeTakeFirstOrThrow();
  const channel = payer.phone !== null ? ('sms' as const) : ('email' as const);
  const address = (payer.phone ?? payer.email)!;
  const code = newOtpCode();
  let written = false;
  try {
    await app.ledger.transfer({
      ...payment,
      pending: { timeoutMs: PALM_CONFIRM_TIMEOUT_MS },
      // Inside the transfer's transaction, on its first use only (a retried key sends no second code).
      guard: async (trx) => {
        const { count } = await trx
          .selectFrom('palm_payment_confirmations')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('payer_user_id', '=', match.userId)
          .where('created_at', '>', new Date(Date.now() - OTP_SEND_WINDOW_MS))
          .executeTakeFirstOrThrow();
        // Codes one payer can be sent for palm payments: as many as OTP sends to one address (spec §9).
        if (Number(count) >= OTP_MAX_SENDS) throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
      },
      onRecorded: async (trx, transfer) => {
        await app.palm.recordScan(trx, match, transfer.id);
        await trx
          .insertInto('palm_payment_confirmations')
          .values({
            transfer_id: transfer.id,
            payer_user_id: match.userId,
            receiver_user_id: input.receiverUserId,
            channel,
            code_hash: hashOtp(app.env.COOKIE_SECRET, CODE_PURPOSE, transfer.id, code),
          })
          .execute();
        written = true;
      },
    });
  } catch (error) {
    throw toAppError(error, app.ledger.limits);
  }
  const transaction = await transactionOf(app, id);
  if (written) {
    const receiver = transaction.to_user_email ?? 'a Hasta account';
    const body =
      `Hasta: ${code} is the code for a palm payment of Rs ${transaction.amount} to ${receiver}. ` +
      `Give it only to the person taking this payment. It expires in ${PALM_CONFIRM_TIMEOUT_MS / 60_000} minutes.`;
    try {
      await app.messenger.send(
        channel === 'sms'
          ? { channel, to: address, body }
          : { channel, to: address, subject: 'Your Hasta palm payment code', body },
      );
    } catch (error) {
      // No code, no payment: the reserved amount goes back at once.
      request.log.error({ err: error }, 'palm payment code not sent');
      await closePalmPayment(app, id, 'void', 'failed');
      throw AppError.of('INTERNAL', 'failedToSendOtpRetry');
    }
  }
  const row = await db
    .selectFrom('palm_payment_confirmations')
    .select(['channel', 'outcome', 'created_at'])
    .where('transfer_id', '=', id)
    .executeTakeFirstOrThrow();
  if (row.outcome === 'paid') return { kind: 'paid', transaction };
  if (row.outcome !== null) throw AppError.of('CONFLICT', outcomeMessage(row.outcome));
  return {
    kind: 'awaiting_code',
    confirmation: {
      id,
      channel: row.channel,
      sent_to: maskAddress(address),
      amount: transaction.amount,
      expires_at: new Date(new Date(row.created_at).getTime() + PALM_CONFIRM_TIMEOUT_MS).toISOString(),
    },
  };
}

type ClosedOutcome = 'cancelled' | 'failed' | 'expired';

function outcomeMessage(outcome: ClosedOutcome): MessageKey {
  return outcome === 'expired' ? 'palmPaymentExpired' : 'palmPaymentClosed';
}

/** Marks a confirmation's outcome in the transaction that resolves its pending transfer. */
export function markConfirmation(outcome: 'paid' | ClosedOutcome) {
  return async (trx: Transaction<Schema>, pending: { id: string }) => {
    await trx
      .updateTable('palm_payment_confirmations')
      .set({ outcome, resolved_at: new Date() })
      .where('transfer_id', '=', pending.id)
      .where('outcome', 'is', null)
      .execute();
  };
}

/** Posts or voids a waiting palm payment once; false when it was already resolved. */
async function closePalmPayment(
  app: FastifyInstance,
  id: string,
  action: 'post' | 'void',
  outcome: 'paid' | ClosedOutcome,
  initiatedBy?: string,
): Promise<boolean> {
  try {
    await app.ledger.resolve({
      id: uuidFromText(`palm-payment-${action}:${id}`),
      pendingId: id,
      action,
      initiatedBy,
      onRecorded: markConfirmation(outcome),
    });
    return true;
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'pending_resolved') return false;
    if (error instanceof LedgerError && error.code === 'pending_expired') {
      await app.pendingExpiry.expireNow(id);
      throw AppError.of('CONFLICT', 'palmPaymentExpired');
    }
    throw error;
  }
}

/** The waiting palm payment `id` of this receiver, or 404 (someone else's is not theirs to see). */
async function waitingPayment(app: FastifyInstance, receiverUserId: string, id: string) {
  const row = await app.database.db
    .selectFrom('palm_payment_confirmations')
    .selectAll()
    .where('transfer_id', '=', id)
    .where('receiver_user_id', '=', receiverUserId)
    .executeTakeFirst();
  if (!row) throw AppError.of('NOT_FOUND', 'palmPaymentNotFound');
  return row;
}

/**
 * The receiver enters the payer's code: the payment is posted. A wrong code is counted; the fifth voids the
 * payment. A payment already confirmed answers its transaction again.
 */
export async function confirmPalmPayment(
  app: FastifyInstance,
  receiverUserId: string,
  id: string,
  code: string,
): Promise<TransactionRecord> {
  const db = app.database.db;
  const row = await waitingPayment(app, receiverUserId, id);
  if (row.outcome === 'paid') return transactionOf(app, id);
  if (row.outcome !== null) throw AppError.of('CONFLICT', outcomeMessage(row.outcome));
  if (!sameHash(hashOtp(app.env.COOKIE_SECRET, CODE_PURPOSE, id, code), row.code_hash)) {
    const counted = await db
      .updateTable('palm_payment_confirmations')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('transfer_id', '=', id)
      .where('outcome', 'is', null)
      .returning('failed_attempts')
      .executeTakeFirst();
    if (counted && counted.failed_attempts >= PALM_CONFIRM_MAX_FAILURES) {
      await closePalmPayment(app, id, 'void', 'failed', receiverUserId);
      throw AppError.of('RATE_LIMITED', 'tooManyAttempts');
    }
    throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  }
  if (!(await closePalmPayment(app, id, 'post', 'paid', receiverUserId))) {
    const now = await waitingPayment(app, receiverUserId, id);
    if (now.outcome !== 'paid') throw AppError.of('CONFLICT', outcomeMessage(now.outcome ?? 'cancelled'));
  }
  return transactionOf(app, id);
}

/** The receiver cancels a waiting palm payment: nothing is paid. Cancelling twice is not an error. */
export async function cancelPalmPayment(
  app: FastifyInstance,
  receiverUserId: string,
  id: string,
): Promise<void> {
  const row = await waitingPayment(app, receiverUserId, id);
  if (row.outcome === 'paid') throw AppError.of('CONFLICT', 'palmPaymentAlreadyConfirmed');
  if (row.outcome === 'cancelled') return;
  if (row.outcome !== null) throw AppError.of('CONFLICT', outcomeMessage(row.outcome));
  if (!(await closePalmPayment(app, id, 'void', 'cancelled', receiverUserId))) {
    const now = await waitingPayment(app, receiverUserId, id);
    if (now.outcome === 'paid') throw AppError.of('CONFLICT', 'palmPaymentAlreadyConfirmed');
  }
}

/** A palm payment that moved the money (spec §7: `state` true, `authenticated` true). */
export function palmPaidAnswer(transaction: TransactionRecord, message: string) {
  return {
    success: true as const,
    state: true as const,
    authenticated: true as const,
    message,
    transaction,
  };
}

/** The answer of a palm payment call: 200 and the transaction, or 202 while it waits for the payer's code. */
export function palmPaymentAnswer(outcome: PalmPaymentOutcome, reply: FastifyReply, paidMessage: string) {
  if (outcome.kind === 'paid') return palmPaidAnswer(outcome.transaction, paidMessage);
  void reply.code(202);
  return {
    success: true as const,
    state: false as const,
    confirmation_required: true as const,
    message: outcome.confirmation.channel === 'sms' ? messages.palmCodeSentPhone : messages.palmCodeSentEmail,
    confirmation: outcome.confirmation,
  };
}
