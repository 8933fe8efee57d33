import type { OtpPurpose } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { AuthDeps, Caller } from './auth-deps';
import { consumeOtp, latestLivePurpose } from './otp';
import { otpPurposeOf } from './otp-purpose';
import { hashToken, newToken } from './secrets';
import { startSession, type SignedIn } from './start-session';
import { findUserByIdentifier } from './user-repository';
import { insertVerification } from './verification-repository';

/** How long a verified address may be used (to register, or to pay one transfer). */
export const VERIFICATION_TTL_MS = 15 * 60_000;

export type VerifyCodeResult =
  /** A login code: the caller is signed in (set the session cookie). */
  | ({ purpose: 'login' } & SignedIn)
  /** A transfer code: the caller's session may now pay one transfer. */
  | { purpose: 'transfer' }
  /** A registration code or link: the token (also to be set as the verification cookie) opens signup. */
  | { purpose: 'registration'; verificationToken: string };

/**
 * Checks a code (or an email's registration link token) for an address. Password-reset codes are checked
 * only by the password reset itself; transfer codes only for the signed-in session that asked for them.
 */
export async function verifyCode(
  deps: AuthDeps,
  input: {
    identifier: string;
    otp?: string | undefined;
    token?: string | undefined;
    /** As the client sent it; see otpPurposeOf when it did not. */
    requested: OtpPurpose | undefined;
    caller: Caller | undefined;
    /** Who is trying: the client's address. */
    client: string;
  },
): Promise<VerifyCodeResult> {
  const { db } = deps;
  const { identifier, caller } = input;
  const purpose = await otpPurposeOf(input.requested, {
    step: 'verify',
    signedIn: caller !== undefined,
    newestLivePurpose: (purposes) => latestLivePurpose(db, identifier, purposes, deps.now()),
  });
  // Palm and store step-up codes are checked only by the step-up (palm/palm-step-up.ts), store contact codes
  // only by merchant/store-settings.ts.
  if (
    purpose === 'password_reset' ||
    purpose === 'palm_enrol' ||
    purpose === 'palm_unfreeze' ||
    purpose === 'store_contact' ||
    purpose === 'store_bank_account' ||
    purpose === 'store_withdrawal' ||
    purpose === 'passkey_manage'
  )
    throw AppError.of('BAD_REQUEST', 'invalidRequest');
  if (purpose === 'transfer' && !caller) throw AppError.of('UNAUTHORIZED', 'unauthorized');

  const used = await consumeOtp(deps, {
    secret: deps.secret,
    identifier,
    purpose,
    code: input.otp,
    token: input.token,
    sessionId: caller?.sessionId,
    client: input.client,
  });
  if (!used) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');

  if (purpose === 'login') {
    const user = await findUserByIdentifier(db, identifier);
    if (!user) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
    return { purpose, ...(await startSession(db, user, caller?.sessionId, deps.now())) };
  }
  const verificationToken = newToken();
  await insertVerification(db, {
    tokenHash: hashToken(verificationToken),
    identifier,
    purpose,
    sessionId: purpose === 'transfer' ? (caller?.sessionId ?? null) : null,
    // A bound transfer code's verification pays only the transfer it named (issue 23).
    binding: purpose === 'transfer' ? used.binding : undefined,
    expiresAt: new Date(deps.now().getTime() + VERIFICATION_TTL_MS),
  });
  if (purpose === 'transfer') return { purpose };
  return { purpose, verificationToken };
}
