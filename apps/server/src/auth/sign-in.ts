import { messages } from '@hasta/contracts/messages';
import { AppError } from '../lib/app-error';
import { decoyPasswordHash, verifyPassword } from '../lib/password';
import { attemptFailed, attemptSucceeded, beginAttempt } from './attempt-guard';
import type { AuthDeps } from './auth-deps';
import { consumeOtp } from './otp';
import { startSession, type SignedIn } from './start-session';
import { findUserByIdentifier } from './user-repository';

/**
 * Logs in with a login code or a password. A wrong password counts as a failed attempt of this client on the
 * address (attempt-guard.ts: growing waits, 5 in 15 minutes then refused for this client, other clients
 * untouched); an unknown address costs the same hashing time as a known one.
 */
export async function signIn(
  deps: Pick<AuthDeps, 'db' | 'secret' | 'messenger' | 'now' | 'onNoticeFailed'>,
  input: {
    identifier: string;
    otp?: string | undefined;
    password?: string | undefined;
    /** The session this browser had, ended by the sign-in. */
    currentSessionId: string | undefined;
    /** Who is trying: the client's address. */
    client: string;
  },
): Promise<SignedIn> {
  const { db } = deps;
  const { identifier, client } = input;
  if (input.otp !== undefined) {
    const ok = await consumeOtp(deps, {
      secret: deps.secret,
      identifier,
      purpose: 'login',
      code: input.otp,
      client,
    });
    const user = ok ? await findUserByIdentifier(db, identifier) : undefined;
    if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
    return startSession(db, user, input.currentSessionId, deps.now());
  }
  const attempt = await beginAttempt(deps, { identifier, client });
  const user = await findUserByIdentifier(db, identifier);
  const storedHash = user?.password_hash ?? (await decoyPasswordHash());
  const ok = (await verifyPassword(storedHash, input.password ?? '')) && user?.password_hash != null;
  if (!ok || !user) {
    await attemptFailed(deps, attempt);
    throw new AppError('UNAUTHORIZED', messages.wrongCredentials);
  }
  await attemptSucceeded(deps, attempt);
  return startSession(db, user, input.currentSessionId, deps.now());
}
