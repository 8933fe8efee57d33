import { messages } from '@hasta/contracts/messages';
import { AppError } from '../lib/app-error';
import { decoyPasswordHash, verifyPassword } from '../lib/password';
import type { AuthDeps } from './auth-deps';
import { assertAttemptsLeft, clearFailures, consumeOtp, recordFailure } from './otp';
import { startSession, type SignedIn } from './start-session';
import { findUserByIdentifier } from './user-repository';

/**
 * Logs in with a login code or a password. A wrong password counts as a failed attempt of the address (5 in
 * 15 minutes, then refused); an unknown address costs the same hashing time as a known one.
 */
export async function signIn(
  deps: Pick<AuthDeps, 'db' | 'secret'>,
  input: {
    identifier: string;
    otp?: string | undefined;
    password?: string | undefined;
    /** The session this browser had, ended by the sign-in. */
    currentSessionId: string | undefined;
  },
): Promise<SignedIn> {
  const { db } = deps;
  const { identifier } = input;
  if (input.otp !== undefined) {
    const ok = await consumeOtp(db, { secret: deps.secret, identifier, purpose: 'login', code: input.otp });
    const user = ok ? await findUserByIdentifier(db, identifier) : undefined;
    if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
    return startSession(db, user, input.currentSessionId);
  }
  await assertAttemptsLeft(db, identifier);
  const user = await findUserByIdentifier(db, identifier);
  const storedHash = user?.password_hash ?? (await decoyPasswordHash());
  const ok = (await verifyPassword(storedHash, input.password ?? '')) && user?.password_hash != null;
  if (!ok || !user) {
    await recordFailure(db, identifier);
    throw new AppError('UNAUTHORIZED', messages.wrongCredentials);
  }
  await clearFailures(db, identifier);
  return startSession(db, user, input.currentSessionId);
}
