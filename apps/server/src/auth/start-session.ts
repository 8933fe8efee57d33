import type { PublicUser } from '@hasta/contracts/auth';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import {
  createSession,
  revokeSession,
  toPublicUser,
  type SecondFactorCarried,
  type UserRow,
} from './sessions';

/** A session just begun: the bearer token (the caller sets it as the session cookie) and its user. */
export interface SignedIn {
  token: string;
  /** The new session's id (what step-ups and devices are bound to). */
  sessionId: string;
  user: PublicUser;
  /** The second factor the new session inherited (a password change), if any. */
  secondFactorAt?: Date | null;
}

/**
 * Signs a user in, rotating: the session the browser had (`replacing`, if any) ends, and a fresh one begins.
 */
export async function startSession(
  db: Kysely<Schema>,
  user: UserRow,
  replacing: string | undefined,
  now = new Date(),
  carried?: SecondFactorCarried,
): Promise<SignedIn> {
  if (replacing !== undefined) await revokeSession(db, replacing);
  const { token, sessionId } = await createSession(db, user.id, now, carried);
  return { token, sessionId, user: toPublicUser(user), secondFactorAt: carried?.secondFactorAt ?? null };
}
