import type { SessionSummary } from '@hasta/contracts/auth';
import type { Kysely } from 'kysely';
import type { Schema, UserRole } from '../db/schema';
import { liveSessionsOf } from './session-repository';
import { isIdle } from './sessions';

/**
 * The caller's own live sessions (never another user's): when each began and was last used, from what, and
 * which is the caller's. Sessions already idle past the role's timeout are left out: they no longer work.
 */
export async function listSessions(
  deps: { db: Kysely<Schema>; now: () => Date },
  caller: { sessionId: string; userId: string; role: UserRole },
): Promise<SessionSummary[]> {
  const now = deps.now();
  const sessions = await liveSessionsOf(deps.db, caller.userId, now);
  return sessions
    .filter((session) => !isIdle(caller.role, session.lastSeenAt, now))
    .map((session) => ({
      id: session.id,
      created_at: session.createdAt.toISOString(),
      last_seen_at: session.lastSeenAt.toISOString(),
      user_agent: session.userAgent,
      current: session.id === caller.sessionId,
    }));
}
