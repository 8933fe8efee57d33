import { OTP_RESEND_COOLDOWN_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import type { OtpPurpose } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { AuthDeps, Caller } from './auth-deps';
import { codeMessage, noticeMessage } from './notices';
import { issueOtp, takeSendAllowance } from './otp';
import { otpPurposeOf } from './otp-purpose';
import { findUserByIdentifier } from './user-repository';
import { channelOf } from './users';

export interface SendCodeResult {
  success: true;
  message: string;
  resend_after_s: number;
}

/**
 * Sends a one-time code to an email or phone (spec §7), within the address's send allowance. When the
 * address's state does not fit the purpose (registering a taken address, logging in without an account), a
 * notice goes out instead of a code, and the answer is the same, so it never tells which.
 */
export async function sendCode(
  deps: AuthDeps,
  input: {
    identifier: string;
    /** As the client sent it; see otpPurposeOf when it did not. */
    requested: OtpPurpose | undefined;
    caller: Caller | undefined;
    /** The public origin, for the links in messages. */
    origin: string;
  },
): Promise<SendCodeResult> {
  const { db } = deps;
  const { identifier, caller } = input;
  const user = await findUserByIdentifier(db, identifier);
  const purpose = await otpPurposeOf(input.requested, {
    step: 'send',
    signedIn: caller !== undefined,
    hasAccount: user !== undefined,
  });
  // Palm step-up codes go only to the owner's own contact (palm/palm-step-up.ts), never to a named address.
  if (purpose === 'palm_enrol' || purpose === 'palm_unfreeze')
    throw AppError.of('BAD_REQUEST', 'invalidRequest');
  if (purpose === 'transfer') {
    if (!caller) throw AppError.of('UNAUTHORIZED', 'unauthorized');
    if (identifier !== caller.user.email && identifier !== caller.user.phone)
      throw AppError.of('FORBIDDEN', 'forbidden');
  }
  await takeSendAllowance(db, identifier, purpose);

  const needsAccount = purpose !== 'registration';
  if (needsAccount !== (user !== undefined)) {
    await deps.messenger.send(
      noticeMessage({
        identifier,
        kind: user ? 'already-registered' : 'no-account',
        origin: input.origin,
      }),
    );
  } else {
    const withLink = purpose === 'registration' && channelOf(identifier) === 'email';
    const { code, linkToken } = await issueOtp(db, {
      secret: deps.secret,
      identifier,
      purpose,
      ...(purpose === 'transfer' && caller ? { sessionId: caller.sessionId } : {}),
      withLink,
    });
    const registrationLink = linkToken
      ? `${input.origin}/register?${new URLSearchParams({ token: linkToken, email: identifier, type: 'registration' })}`
      : undefined;
    await deps.messenger.send(codeMessage({ identifier, purpose, code, registrationLink }));
  }
  return {
    success: true,
    message: channelOf(identifier) === 'sms' ? messages.otpSentPhone : messages.otpSentEmail,
    resend_after_s: OTP_RESEND_COOLDOWN_MS / 1000,
  };
}
