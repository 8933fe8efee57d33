import { OTP_MAX_SENDS, OTP_RESEND_COOLDOWN_MS, OTP_SEND_WINDOW_MS } from '@hasta/contracts/constants';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { OtpPurpose, Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { attemptFailed, attemptSucceeded, beginAttempt, type AttemptDeps } from './attempt-guard';
import { hashOtp, hashToken, newOtpCode, newToken, sameHash } from './secrets';

export const OTP_TTL_MS = 5 * 60_000;

/** What a bound transfer code approves (issue 23): this amount, to this receiver's normalized email or phone. */
export interface TransferBinding {
  amountPaise: bigint;
  receiver: string;
}

/** A code used up: with what it approves when it was bound to a transfer. */
export interface ConsumedOtp {
  binding: TransferBinding | undefined;
}

/** Codes that only the session that asked for them may use (a transfer, a palm step-up). */
const SESSION_BOUND: ReadonlySet<OtpPurpose> = new Set([
  'transfer',
  'palm_enrol',
  'palm_unfreeze',
  'store_contact',
  'store_bank_account',
  'store_withdrawal',
]);

/** Serialises the throttle checks of one identifier across requests and servers. */
async function lockIdentifier(trx: Transaction<Schema>, identifier: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`otp:${identifier}`}))`.execute(trx);
}

async function countEvents(
  db: Kysely<Schema>,
  identifier: string,
  kind: 'send',
  since: Date,
): Promise<{ count: number }> {
  const row = await db
    .selectFrom('otp_events')
    .select((eb) => [eb.fn.countAll<string>().as('count')])
    .where('identifier', '=', identifier)
    .where('kind', '=', kind)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count) };
}

/**
 * Counts a send against the address's allowance (3 per 10 minutes, whatever the purpose; 60 s between two
 * codes of the same purpose), or refuses. Every send counts, whether a code was made or a notice went out
 * instead, so answers never tell the two apart.
 */
export async function takeSendAllowance(
  db: Kysely<Schema>,
  identifier: string,
  purpose: OtpPurpose | 'palm_enrol_request',
  now = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockIdentifier(trx, identifier);
    const sends = await countEvents(trx, identifier, 'send', new Date(now.getTime() - OTP_SEND_WINDOW_MS));
    if (sends.count >= OTP_MAX_SENDS) throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
    const recent = await trx
      .selectFrom('otp_events')
      .select('id')
      .where('identifier', '=', identifier)
      .where('kind', '=', 'send')
      .where('purpose', '=', purpose)
      .where('created_at', '>', new Date(now.getTime() - OTP_RESEND_COOLDOWN_MS))
      .executeTakeFirst();
    if (recent) throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
    await trx
      .insertInto('otp_events')
      .values({ identifier, kind: 'send', purpose, created_at: now })
      .execute();
  });
}

/** Makes a code (and, for links, a token) for one purpose; earlier unused codes of that purpose die. */
export async function issueOtp(
  db: Kysely<Schema>,
  input: {
    secret: string;
    identifier: string;
    purpose: OtpPurpose;
    sessionId?: string;
    withLink?: boolean;
    /** A transfer code's amount and receiver (issue 23); none for an unbound code. */
    binding?: TransferBinding | undefined;
  },
  now = new Date(),
): Promise<{ code: string; linkToken: string | undefined }> {
  const code = newOtpCode();
  const linkToken = input.withLink ? newToken() : undefined;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('otp_codes')
      .set({ consumed_at: now })
      .where('identifier', '=', input.identifier)
      .where('purpose', '=', input.purpose)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('otp_codes')
      .values({
        identifier: input.identifier,
        purpose: input.purpose,
        code_hash: hashOtp(input.secret, input.purpose, input.identifier, code),
        link_token_hash: linkToken ? hashToken(linkToken) : null,
        session_id: input.sessionId ?? null,
        transfer_amount_paise: input.binding?.amountPaise ?? null,
        transfer_receiver: input.binding?.receiver ?? null,
        created_at: now,
        expires_at: new Date(now.getTime() + OTP_TTL_MS),
      })
      .execute();
  });
  return { code, linkToken };
}

/** The purpose of the newest live code for this identifier, among those allowed. */
export async function latestLivePurpose(
  db: Kysely<Schema>,
  identifier: string,
  purposes: OtpPurpose[],
  now = new Date(),
): Promise<OtpPurpose | undefined> {
  const row = await db
    .selectFrom('otp_codes')
    .select('purpose')
    .where('identifier', '=', identifier)
    .where('purpose', 'in', purposes)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.purpose;
}

/**
 * Uses up the live code of this identifier and purpose if `code` (or the link `token`) matches: single use,
 * 5 minutes, bound to its purpose (and, for transfers, to the session that asked). Each check is an attempt
 * of the client on the identifier (attempt-guard.ts): a miss counts as its failure, a hit clears its
 * failures; a client that failed recently waits, and after 5 failures in 15 minutes it is refused.
 * Answers false on a miss, else what the code approved (a transfer code's binding).
 */
export async function consumeOtp(
  deps: AttemptDeps,
  input: {
    secret: string;
    identifier: string;
    purpose: OtpPurpose;
    code?: string | undefined;
    token?: string | undefined;
    sessionId?: string | undefined;
    /** Who is trying: the client's address (routes/support/client-key.ts). */
    client: string;
  },
): Promise<false | ConsumedOtp> {
  const { db } = deps;
  const attempt = await beginAttempt(deps, { identifier: input.identifier, client: input.client });
  const now = attempt.at;
  let query = db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash', 'link_token_hash', 'transfer_amount_paise', 'transfer_receiver'])
    .where('identifier', '=', input.identifier)
    .where('purpose', '=', input.purpose)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1);
  if (SESSION_BOUND.has(input.purpose)) query = query.where('session_id', '=', input.sessionId ?? null);
  const live = await query.executeTakeFirst();

  const matches =
    live !== undefined &&
    ((input.code !== undefined &&
      sameHash(live.code_hash, hashOtp(input.secret, input.purpose, input.identifier, input.code))) ||
      (input.token !== undefined &&
        live.link_token_hash !== null &&
        sameHash(live.link_token_hash, hashToken(input.token))));
  if (!matches) {
    await attemptFailed(deps, attempt);
    return false;
  }
  // Single use even when two requests race with the same code.
  const used = await db
    .updateTable('otp_codes')
    .set({ consumed_at: now })
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) {
    await attemptFailed(deps, attempt);
    return false;
  }
  await attemptSucceeded(deps, attempt);
  return {
    binding:
      live.transfer_amount_paise !== null && live.transfer_receiver !== null
        ? { amountPaise: BigInt(live.transfer_amount_paise), receiver: live.transfer_receiver }
        : undefined,
  };
}
