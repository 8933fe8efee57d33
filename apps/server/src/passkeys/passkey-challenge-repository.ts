import type { Kysely } from 'kysely';
import type { PasskeyCeremony, PasskeyChallengePurpose, Schema } from '../db/schema';

/** A challenge given out, with what it was given for. */
export interface PasskeyChallenge {
  challenge: string;
  purpose: PasskeyChallengePurpose;
  /** For a transfer: the amount and the normalized receiver the assertion approves. */
  transfer: { amountPaise: bigint; receiver: string } | undefined;
}

export async function insertChallenge(
  db: Kysely<Schema>,
  input: {
    challenge: string;
    sessionId: string;
    userId: string;
    ceremony: PasskeyCeremony;
    purpose: PasskeyChallengePurpose;
    transfer?: { amountPaise: bigint; receiver: string } | undefined;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  // Challenges past their time are of no use to anyone: each new one sweeps a few of the session's away.
  await db
    .deleteFrom('passkey_challenges')
    .where('session_id', '=', input.sessionId)
    .where('expires_at', '<', input.now)
    .execute();
  await db
    .insertInto('passkey_challenges')
    .values({
      challenge: input.challenge,
      session_id: input.sessionId,
      user_id: input.userId,
      ceremony: input.ceremony,
      purpose: input.purpose,
      transfer_amount_paise: input.transfer?.amountPaise ?? null,
      transfer_receiver: input.transfer?.receiver ?? null,
      created_at: input.now,
      expires_at: input.expiresAt,
    })
    .execute();
}

/**
 * Uses up a live challenge of this session and ceremony: single use even when two answers race. Undefined
 * when it is unknown, another session's, expired or used.
 */
export async function consumeChallenge(
  db: Kysely<Schema>,
  input: { challenge: string; sessionId: string; userId: string; ceremony: PasskeyCeremony; now: Date },
): Promise<PasskeyChallenge | undefined> {
  const row = await db
    .updateTable('passkey_challenges')
    .set({ consumed_at: input.now })
    .where('challenge', '=', input.challenge)
    .where('session_id', '=', input.sessionId)
    .where('user_id', '=', input.userId)
    .where('ceremony', '=', input.ceremony)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', input.now)
    .returning(['challenge', 'purpose', 'transfer_amount_paise', 'transfer_receiver'])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    challenge: row.challenge,
    purpose: row.purpose,
    transfer:
      row.transfer_amount_paise !== null && row.transfer_receiver !== null
        ? { amountPaise: BigInt(row.transfer_amount_paise), receiver: row.transfer_receiver }
        : undefined,
  };
}
