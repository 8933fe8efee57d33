import type { PublicUser } from '@hasta/contracts/auth';
import type { Kysely, Selectable } from 'kysely';
import type { Schema, UserRole, UsersTable } from '../db/schema';
import { hashToken, newToken } from './secrets';
import { touchSession } from './session-repository';

/** The absolute lifetime of a session, however often it is used. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

/** How long a session may go unused before it ends, by its user's role (issue 23 item 2). */
export const SESSION_IDLE_TIMEOUT_MS: Record<UserRole, number> = {
  admin: 15 * 60_000,
  merchant: 12 * 60 * 60_000,
  user: 7 * 24 * 60 * 60_000,
};

/** A session's last use is written at most this often, to spare writes. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Whether a session last used at `lastSeenAt` by a user of `role` has been idle too long at `now`. */
export function isIdle(role: UserRole, lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() > SESSION_IDLE_TIMEOUT_MS[role];
}

export type UserRow = Selectable<UsersTable>;

export interface AuthContext {
  sessionId: string;
  user: UserRow;
  /** When this session passed its second factor (issue 23); null: only the password or code so far. */
  secondFactorAt: Date | null;
  /** The last passkey use in this session, or null. */
  passkeyVerifiedAt: Date | null;
}

/** What a new session inherits from the one it replaces (a password change): its second factor. */
export interface SecondFactorCarried {
  secondFactorAt: Date | null;
  passkeyVerifiedAt: Date | null;
}

export function toPublicUser(user: UserRow): PublicUser {
  return {
    id: user.id,
    email: user.email,
    phone: user.phone,
    username: user.username,
    role: user.role,
    is_admin: user.role === 'admin',
    must_change_password: user.must_change_password,
    // An account created with a temporary password (a store owner's welcome) was never updated since: an
    // admin's reset, like every change to a user, moves updated_at on.
    first_sign_in: user.must_change_password && user.updated_at.getTime() === user.created_at.getTime(),
  };
}

/** A new session; the token is returned once and stored only as its hash. */
export async function createSession(
  db: Kysely<Schema>,
  userId: string,
  now = new Date(),
  carried?: SecondFactorCarried,
): Promise<{ token: string; sessionId: string }> {
  const token = newToken();
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_TTL_MS),
      second_factor_at: carried?.secondFactorAt ?? null,
      passkey_verified_at: carried?.passkeyVerifiedAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, sessionId: row.id };
}

/**
 * The live session of a token with its user, or undefined: not revoked, within its 30 days and not idle past
 * its user's role's timeout. A use is recorded (at most once a minute, with the first User-Agent seen).
 */
export async function findSession(
  db: Kysely<Schema>,
  token: string,
  now = new Date(),
  userAgent?: string,
): Promise<AuthContext | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.user_agent as session_user_agent',
      'sessions.second_factor_at as session_second_factor_at',
      'sessions.passkey_verified_at as session_passkey_verified_at',
    ])
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    session_id,
    session_last_seen_at,
    session_user_agent,
    session_second_factor_at,
    session_passkey_verified_at,
    ...user
  } = row;
  if (isIdle(user.role, session_last_seen_at, now)) return undefined;
  const stale = now.getTime() - session_last_seen_at.getTime() >= LAST_SEEN_RESOLUTION_MS;
  const agentToRecord = session_user_agent === null && userAgent !== undefined;
  if (stale || agentToRecord)
    await touchSession(db, session_id, stale ? now : session_last_seen_at, userAgent);
  return {
    sessionId: session_id,
    user,
    secondFactorAt: session_second_factor_at,
    passkeyVerifiedAt: session_passkey_verified_at,
  };
}

export async function revokeSession(db: Kysely<Schema>, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of a user (password changed or reset). */
export async function revokeUserSessions(db: Kysely<Schema>, userId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
