import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { uuidFromText } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { listTransfers, toTransactionRecord } from '../ledger/queries';
import { AppError } from '../lib/app-error';

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

/**
 * A palm payment: the palm names the payer (1:N), and the money moves from the payer's wallet to the
 * receiving account in one ledger transfer that also records the recognised scan in the payer's history.
 * There is no OTP: the palm is the factor, so the amount is capped (PALM_MAX_PAYMENT_PAISE).
 */
export async function takePalmPayment(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { scan: PalmScan; amountPaise: bigint; receiverUserId: string; creditAccountId: string },
): Promise<TransactionRecord> {
  if (input.amountPaise > app.palm.options.maxPaymentPaise) {
    throw AppError.of('BAD_REQUEST', 'palmPaymentTooLarge');
  }
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
  const key = (request.headers as Record<string, string | undefined>)['idempotency-key'];
  const id = key ? uuidFromText(`palm:${input.receiverUserId}:${key}`) : crypto.randomUUID();
  try {
    await app.ledger.transfer({
      id,
      debitAccountId: await app.ledger.ensureUserAccount(match.userId),
      creditAccountId: input.creditAccountId,
      amountPaise: input.amountPaise,
      kind: 'payment',
      initiatedBy: input.receiverUserId,
      onRecorded: (trx, transfer) => app.palm.recordScan(trx, match, transfer.id),
    });
  } catch (error) {
    throw toAppError(error, app.ledger.limits);
  }
  const [view] = await listTransfers(app.database.db, { transferId: id, limit: 1, includeReversed: true });
  if (!view) throw new Error(`palm payment ${id} is missing after it was written`);
  return toTransactionRecord(view, input.creditAccountId);
}
