import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/app-error';
import { hashPassword } from '../lib/password';
import type { AuthDeps } from './auth-deps';
import { hashToken } from './secrets';
import { assertPasswordAllowed } from './set-password';
import { startSession, type SignedIn } from './start-session';
import { insertUser } from './user-repository';
import { channelOf } from './users';
import { spendRegistrationVerification } from './verification-repository';

/**
 * Creates an account for a verified email or phone and signs it in. The verification is spent once; only the
 * verified contact is kept (an unverified one could be someone else's).
 */
export async function signUp(
  deps: Pick<AuthDeps, 'db' | 'now'>,
  input: {
    username: string;
    password: string;
    email: string | undefined;
    phone: string | undefined;
    /** From the verify answer or the verification cookie. */
    verificationToken: string | undefined;
    /** The session this browser had, ended by the sign-in. */
    currentSessionId: string | undefined;
  },
): Promise<SignedIn> {
  const { db } = deps;
  const token = input.verificationToken;
  if (!token) throw AppError.of('BAD_REQUEST', 'verificationRequired');
  assertPasswordAllowed(input.password);
  const passwordHash = await hashPassword(input.password);

  const user = await db.transaction().execute(async (trx) => {
    const verified = await spendRegistrationVerification(trx, {
      tokenHash: hashToken(token),
      identifiers: [input.email, input.phone].filter((value): value is string => value !== undefined),
      now: new Date(),
    });
    if (!verified) throw AppError.of('BAD_REQUEST', 'verificationRequired');
    const isPhone = channelOf(verified.identifier) === 'sms';
    try {
      return await insertUser(trx, {
        username: input.username,
        email: isPhone ? null : verified.identifier,
        phone: isPhone ? verified.identifier : null,
        passwordHash,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'accountExists');
      throw error;
    }
  });
  return startSession(db, user, input.currentSessionId, deps.now());
}
