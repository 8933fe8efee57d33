import { AppError } from '../lib/app-error';
import type { AuthDeps } from './auth-deps';
import { consumeOtp } from './otp';
import { assertPasswordAllowed, setPassword } from './set-password';
import { startSession, type SignedIn } from './start-session';
import { findUserByIdentifier } from './user-repository';

/**
 * A forgotten password: a password-reset code for the address sets the new password, ends every session of
 * the account and signs this browser in.
 */
export async function resetForgottenPassword(
  deps: Pick<AuthDeps, 'db' | 'secret' | 'messenger' | 'now' | 'onNoticeFailed'>,
  input: {
    identifier: string;
    otp: string;
    newPassword: string;
    /** The session this browser had, ended by the sign-in. */
    currentSessionId: string | undefined;
    /** Who is trying: the client's address. */
    client: string;
  },
): Promise<SignedIn> {
  const { db } = deps;
  assertPasswordAllowed(input.newPassword);
  const ok = await consumeOtp(deps, {
    secret: deps.secret,
    identifier: input.identifier,
    purpose: 'password_reset',
    code: input.otp,
    client: input.client,
  });
  const user = ok ? await findUserByIdentifier(db, input.identifier) : undefined;
  if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  const updated = await setPassword(db, user.id, input.newPassword, false);
  if (!updated) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  return startSession(db, updated, input.currentSessionId, deps.now());
}
