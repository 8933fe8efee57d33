import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { revokeOwnSession, revokeSessionsExcept } from './session-repository';

/** What the session-list use cases need: the database and the clock sessions are checked on. */
export interface SessionDeps {
  db: Kysely<Schema>;
  now: () => Date;
}

/** "Sign out everywhere else": ends every session of the caller but the one the request came with. */
export async function revokeOtherSessions(
  deps: SessionDeps,
  caller: { sessionId: string; userId: string },
): Promise<number> {
  return revokeSessionsExcept(deps.db, caller.userId, caller.sessionId, deps.now());
}

/** Ends one of the caller's own sessions; another user's, or one already ended, is not found. */
export async function revokeSessionOf(
  deps: SessionDeps,
  caller: { userId: string },
  sessionId: string,
): Promise<number> {
  const revoked = await revokeOwnSession(deps.db, caller.userId, sessionId, deps.now());
  if (!revoked) throw AppError.of('NOT_FOUND', 'sessionNotFound');
  return 1;
}
