import type { AuthDeps } from './auth-deps';
import { revokeSession } from './sessions';

/** Ends the caller's session, if the request came with a live one. */
export async function signOut(deps: Pick<AuthDeps, 'db'>, sessionId: string | undefined): Promise<void> {
  if (sessionId !== undefined) await revokeSession(deps.db, sessionId);
}
