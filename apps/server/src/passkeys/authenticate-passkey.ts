import { PASSKEY_CHALLENGE_TTL_MS, type PasskeyAssertionPurpose } from '@hasta/contracts/passkeys';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { transferBindingOf } from '../auth/send-code';
import { hashToken, newToken } from '../auth/secrets';
import { recordSecondFactor } from '../auth/session-repository';
import { insertVerification } from '../auth/verification-repository';
import { VERIFICATION_TTL_MS } from '../auth/verify-code';
import { AppError } from '../lib/app-error';
import { grantStepUp } from '../palm/palm-step-up';
import { challengeOf } from './client-data';
import type { PasskeyDeps } from './passkey-config';
import { consumeChallenge, insertChallenge } from './passkey-challenge-repository';
import { findUserPasskey, passkeysOf, recordPasskeyUse } from './passkey-repository';
import type { PasskeyCaller } from './register-passkey';
import { isPendingSecondFactor } from './second-factor';

/** The transfer a passkey is asked to approve, as POST /api/transfer will name it. */
export interface TransferToApprove {
  amount: number;
  receiverEmail?: string | undefined;
  receiverPhone?: string | undefined;
}

/**
 * Starts a passkey assertion for one purpose, bound on the server to this session (and, for a transfer, to
 * its amount and receiver, as a bound code is). A pending session may only finish its sign-in; a finished
 * one may do anything but that.
 */
export async function startPasskeyAuthentication(
  deps: PasskeyDeps,
  caller: PasskeyCaller,
  input: { purpose: PasskeyAssertionPurpose; transfer?: TransferToApprove | undefined },
): Promise<{ options: Record<string, unknown> }> {
  const now = deps.now();
  const pending = isPendingSecondFactor(caller, deps.config);
  if (pending !== (input.purpose === 'sign_in')) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  const transfer =
    input.purpose === 'transfer' && input.transfer ? transferBindingOf(input.transfer) : undefined;
  if (input.purpose === 'transfer' && !transfer) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  const passkeys = await passkeysOf(deps.db, caller.user.id);
  if (passkeys.length === 0) throw AppError.of('BAD_REQUEST', 'passkeyNotFound');
  const options = await generateAuthenticationOptions({
    rpID: deps.config.rpId,
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
    userVerification: 'preferred',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await insertChallenge(deps.db, {
    challenge: options.challenge,
    sessionId: caller.sessionId,
    userId: caller.user.id,
    ceremony: 'authentication',
    purpose: input.purpose,
    transfer,
    now,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
  return { options: options as unknown as Record<string, unknown> };
}

/**
 * Checks an assertion against this session's live challenge (single use: a replayed answer finds it used)
 * and one of the caller's own passkeys (another account's credential is refused), then does what the
 * challenge was given for: finish the sign-in, refresh the admin's passkey time, approve the one transfer it
 * named (a verification like a bound code's), or record a step-up with method 'passkey'.
 */
export async function finishPasskeyAuthentication(
  deps: PasskeyDeps,
  caller: PasskeyCaller,
  input: { response: AuthenticationResponseJSON },
): Promise<{ purpose: PasskeyAssertionPurpose; validUntil: Date | undefined }> {
  const now = deps.now();
  const sent = challengeOf(input.response.response.clientDataJSON);
  const challenge =
    sent === undefined
      ? undefined
      : await consumeChallenge(deps.db, {
          challenge: sent,
          sessionId: caller.sessionId,
          userId: caller.user.id,
          ceremony: 'authentication',
          now,
        });
  if (!challenge) throw AppError.of('BAD_REQUEST', 'passkeyChallengeExpired');
  if (challenge.purpose === 'add') throw AppError.of('BAD_REQUEST', 'invalidRequest');
  const purpose: PasskeyAssertionPurpose = challenge.purpose;
  const passkey = await findUserPasskey(deps.db, { userId: caller.user.id, credentialId: input.response.id });
  if (!passkey) throw AppError.of('BAD_REQUEST', 'passkeyNotVerified');

  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: deps.config.origins,
      expectedRPID: deps.config.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: Number(passkey.counter),
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
    if (!verified.verified) throw new Error('not verified');
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    throw AppError.of('BAD_REQUEST', 'passkeyNotVerified');
  }
  const recorded = await recordPasskeyUse(deps.db, {
    id: passkey.id,
    previousCounter: passkey.counter,
    newCounter: BigInt(newCounter),
    now,
  });
  if (!recorded) throw AppError.of('BAD_REQUEST', 'passkeyNotVerified');
  await recordSecondFactor(deps.db, {
    sessionId: caller.sessionId,
    now,
    secondFactor: purpose === 'sign_in',
    passkey: true,
  });

  if (purpose === 'transfer') {
    const own = caller.user.email ?? caller.user.phone;
    if (own === null || !challenge.transfer) throw AppError.of('BAD_REQUEST', 'invalidRequest');
    await insertVerification(deps.db, {
      tokenHash: hashToken(newToken()),
      identifier: own,
      purpose: 'transfer',
      sessionId: caller.sessionId,
      binding: challenge.transfer,
      expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS),
    });
    return { purpose, validUntil: undefined };
  }
  if (purpose === 'sign_in' || purpose === 'reauth') return { purpose, validUntil: undefined };
  const validUntil = await grantStepUp(
    deps.db,
    { sessionId: caller.sessionId, userId: caller.user.id, purpose, method: 'passkey' },
    now,
  );
  return { purpose, validUntil };
}
