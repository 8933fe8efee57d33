import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** One of a user's live sessions, as the owner's list shows it. */
export interface SessionSummary {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
}

/**
 * Records a use of a session: `last_seen_at` moves at most once a minute (callers decide), and the first
 * User-Agent seen is kept.
 */
export async function touchSession(
  db: Kysely<Schema>,
  sessionId: string,
  now: Date,
  userAgent: string | undefined,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set((eb) => ({
      last_seen_at: now,
      user_agent: eb.fn.coalesce('user_agent', eb.val(userAgent ?? null)),
    }))
    .where('id', '=', sessionId)
    .execute();
}

/** A user's sessions not revoked, not past their 30 days; newest use first. Idle ones are filtered by the caller. */
export async function liveSessionsOf(
  db: Kysely<Schema>,
  userId: string,
  now: Date,
): Promise<SessionSummary[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    userAgent: row.user_agent,
  }));
}

/** Ends one session if it is the user's and still live; answers whether it did. */
export async function revokeOwnSession(
  db: Kysely<Schema>,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends every live session of a user but one; answers how many ended. */
export async function revokeSessionsExcept(
  db: Kysely<Schema>,
  userId: string,
  keepSessionId: string,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '<>', keepSessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Records a session's second factor (issue 23): `secondFactor` marks it passed (an admin's or store owner's
 * sign-in is then complete); `passkey` records a passkey use now.
 */
export async function recordSecondFactor(
  db: Kysely<Schema>,
  input: { sessionId: string; now: Date; secondFactor: boolean; passkey: boolean },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set((eb) => ({
      second_factor_at: input.secondFactor
        ? eb.fn.coalesce('second_factor_at', eb.val(input.now))
        : eb.ref('second_factor_at'),
      passkey_verified_at: input.passkey ? input.now : eb.ref('passkey_verified_at'),
    }))
    .where('id', '=', input.sessionId)
    .execute();
}
