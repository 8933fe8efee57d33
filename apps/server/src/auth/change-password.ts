import { AppError } from '../lib/app-error';
import { verifyPassword } from '../lib/password';
import type { AuthDeps } from './auth-deps';
import type { SecondFactorCarried, UserRow } from './sessions';
import { assertPasswordAllowed, setPassword } from './set-password';
import { startSession, type SignedIn } from './start-session';

/**
 * The signed-in user replaces their password (also the way out of a temporary one): the original must match,
 * every session of the account ends, and a fresh one begins for this browser.
 */
export async function changePassword(
  deps: Pick<AuthDeps, 'db' | 'now'>,
  input: {
    user: UserRow;
    /** The spec's clients name the user; only the caller themselves may be named. */
    userId: string | undefined;
    originalPassword: string;
    newPassword: string;
    /** The second factor this session passed (issue 23): the new session keeps it. */
    carried: SecondFactorCarried;
  },
): Promise<SignedIn> {
  const { db } = deps;
  const { user } = input;
  if (input.userId !== undefined && input.userId !== user.id) throw AppError.of('FORBIDDEN', 'forbidden');
  const ok =
    user.password_hash !== null && (await verifyPassword(user.password_hash, input.originalPassword));
  if (!ok) throw AppError.of('BAD_REQUEST', 'wrongOriginalPassword');
  assertPasswordAllowed(input.newPassword);
  const updated = await setPassword(db, user.id, input.newPassword, false);
  if (!updated) throw AppError.of('UNAUTHORIZED', 'unauthorized');
  // setPassword ended every session of the user, this browser's included: nothing is left to replace.
  return startSession(db, updated, undefined, deps.now(), input.carried);
}
