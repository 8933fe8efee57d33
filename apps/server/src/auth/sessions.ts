import type { PublicUser } from '@hasta/contracts/auth';
import type { Kysely, Selectable } from 'kysely';
import type { Schema, UsersTable } from '../db/schema';
import { hashToken, newToken } from './secrets';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

export type UserRow = Selectable<UsersTable>;

export interface AuthContext {
  sessionId: string;
  user: UserRow;
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
  };
}

/** A new session; the token is returned once and stored only as its hash. */
export async function createSession(
  db: Kysely<Schema>,
  userId: string,
  now = new Date(),
): Promise<{ token: string; sessionId: string }> {
  const token = newToken();
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + SESSION_TTL_MS),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, sessionId: row.id };
}

/** The live session of a token with its user, or undefined. */
export async function findSession(
  db: Kysely<Schema>,
  token: string,
  now = new Date(),
): Promise<AuthContext | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.id as session_id')
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, ...user } = row;
  return { sessionId: session_id, user };
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
