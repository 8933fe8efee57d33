import { AppError } from '../lib/app-error';
import { generatePassword } from '../lib/password';
import type { AuthDeps } from './auth-deps';
import { setPassword } from './set-password';

/**
 * An admin gives a user a one-time temporary password: every session of the user ends, and the user must
 * choose a new password at the next login. An admin cannot reset their own password this way.
 */
export async function resetPasswordForUser(
  deps: Pick<AuthDeps, 'db'>,
  input: { adminId: string; userId: string },
): Promise<{ temporaryPassword: string }> {
  if (input.userId === input.adminId) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  const temporaryPassword = generatePassword();
  const updated = await setPassword(deps.db, input.userId, temporaryPassword, true);
  if (!updated) throw AppError.of('NOT_FOUND', 'userNotFound');
  return { temporaryPassword };
}
