import { PASSKEY_CHALLENGE_TTL_MS, type Passkey } from '@hasta/contracts/passkeys';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { recordSecondFactor } from '../auth/session-repository';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/app-error';
import { assertStepUp } from '../palm/palm-step-up';
import { challengeOf } from './client-data';
import type { PasskeyDeps } from './passkey-config';
import { consumeChallenge, insertChallenge } from './passkey-challenge-repository';
import { countPasskeys, insertPasskey, passkeysOf, type StoredPasskey } from './passkey-repository';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import { replaceRecoveryCodes } from './recovery-code-repository';
import { isPendingSecondFactor, needsSecondFactor, type SessionFactors } from './second-factor';

/** The caller of a passkey ceremony: the session and its user. */
export interface PasskeyCaller extends SessionFactors {
  sessionId: string;
  user: SessionFactors['user'] & {
    email: string | null;
    phone: string | null;
    username: string;
  };
}

export function toPasskeyAnswer(passkey: StoredPasskey): Passkey {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: passkey.createdAt.toISOString(),
    last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

/** The user id as WebAuthn's user handle: the account's uuid bytes, nothing personal. */
function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll('-', ''), 'hex'));
}

/**
 * Starts registering a passkey. A pending session (an admin or store owner after the password or code) may
 * register only the account's first passkey, which then finishes the sign-in; any other session needs a live
 * `passkey_manage` step-up (a code to the owner, or another passkey), so a stolen session cannot add its own.
 */
export async function startPasskeyRegistration(
  deps: PasskeyDeps,
  caller: PasskeyCaller,
): Promise<{ options: Record<string, unknown> }> {
  const now = deps.now();
  const pending = isPendingSecondFactor(caller, deps.config);
  const existing = await passkeysOf(deps.db, caller.user.id);
  if (pending && existing.length > 0) throw AppError.of('CONFLICT', 'passkeyAlreadyRegistered');
  if (!pending)
    await assertStepUp(
      deps.db,
      { userId: caller.user.id, sessionId: caller.sessionId, purpose: 'passkey_manage' },
      now,
    );
  const options = await generateRegistrationOptions({
    rpName: deps.config.rpName,
    rpID: deps.config.rpId,
    userName: caller.user.email ?? caller.user.phone ?? caller.user.username,
    userDisplayName: caller.user.username,
    userID: userHandleOf(caller.user.id),
    attestationType: 'none',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await insertChallenge(deps.db, {
    challenge: options.challenge,
    sessionId: caller.sessionId,
    userId: caller.user.id,
    ceremony: 'registration',
    purpose: pending ? 'sign_in' : 'add',
    now,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
  return { options: options as unknown as Record<string, unknown> };
}

/**
 * Checks the browser's answer against this session's live challenge (single use) and stores the passkey. The
 * first passkey of an admin or store owner finishes the sign-in and comes with recovery codes, answered once
 * and stored only as hashes.
 */
export async function finishPasskeyRegistration(
  deps: PasskeyDeps,
  caller: PasskeyCaller,
  input: { response: RegistrationResponseJSON; name?: string | undefined },
): Promise<{ passkey: Passkey; recoveryCodes: string[] | undefined }> {
  const now = deps.now();
  const sent = challengeOf(input.response.response.clientDataJSON);
  const challenge =
    sent === undefined
      ? undefined
      : await consumeChallenge(deps.db, {
          challenge: sent,
          sessionId: caller.sessionId,
          userId: caller.user.id,
          ceremony: 'registration',
          now,
        });
  if (!challenge) throw AppError.of('BAD_REQUEST', 'passkeyChallengeExpired');
  const firstFactorOnly = challenge.purpose === 'sign_in';
  if (firstFactorOnly && (await countPasskeys(deps.db, caller.user.id)) > 0)
    throw AppError.of('CONFLICT', 'passkeyAlreadyRegistered');
  if (!firstFactorOnly)
    await assertStepUp(
      deps.db,
      { userId: caller.user.id, sessionId: caller.sessionId, purpose: 'passkey_manage' },
      now,
    );

  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: deps.config.origins,
      expectedRPID: deps.config.rpId,
      requireUserVerification: false,
    });
  } catch {
    throw AppError.of('BAD_REQUEST', 'passkeyNotVerified');
  }
  if (!verified.verified) throw AppError.of('BAD_REQUEST', 'passkeyNotVerified');
  const { credential } = verified.registrationInfo;
  const count = await countPasskeys(deps.db, caller.user.id);
  let stored: StoredPasskey;
  try {
    stored = await insertPasskey(deps.db, {
      userId: caller.user.id,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: BigInt(credential.counter),
      transports: (credential.transports ?? []).slice(0, 10),
      name: input.name ?? `Passkey ${count + 1}`,
      now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.of('BAD_REQUEST', 'passkeyNotVerified');
    throw error;
  }
  await recordSecondFactor(deps.db, { sessionId: caller.sessionId, now, secondFactor: true, passkey: true });
  let recoveryCodes: string[] | undefined;
  if (firstFactorOnly && needsSecondFactor(caller.user.role, deps.config)) {
    recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(deps.db, {
      userId: caller.user.id,
      codeHashes: recoveryCodes.map(hashRecoveryCode),
      now,
    });
  }
  return { passkey: toPasskeyAnswer(stored), recoveryCodes };
}
