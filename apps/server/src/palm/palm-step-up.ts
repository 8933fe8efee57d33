import { STEP_UP_VALID_MS, type StepUpPurpose } from '@hasta/contracts/palm-trust';
import type { Kysely } from 'kysely';
import { codeMessage } from '../auth/notices';
import { consumeOtp, issueOtp, takeSendAllowance } from '../auth/otp';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { Messenger } from '../messaging/messenger';
import { maskAddress, ownContactOf } from '../notices/notify-owner';
import { liveStepUpUntil, recordStepUp, type StepUpMethod } from './palm-step-up-repository';

/**
 * The owner's fresh step-up (issue 21): before a palm is enrolled on an account or palm pay is turned back
 * on, the signed-in session proves it is the account's owner with a code sent to the owner's own phone (else
 * email), never to an address the caller names. A verified code counts for that session and purpose for
 * STEP_UP_VALID_MS. Codes use the one-time code machinery: its send allowance (3 per 10 minutes per address),
 * its failure limit (5 per 15 minutes) and single use, bound to the session that asked.
 *
 * A passkey assertion (passkeys/authenticate-passkey.ts, issue 23) records the same step-up with method
 * 'passkey' (palm_step_ups.method); assertStepUp reads both alike.
 */
export interface PalmStepUpDeps {
  db: Kysely<Schema>;
  /** COOKIE_SECRET: keys the hashes of the codes. */
  secret: string;
  messenger: Pick<Messenger, 'send'>;
}

export interface StepUpCaller {
  userId: string;
  sessionId: string;
}

/** Sends a code for `purpose` to the caller's own phone, else email; answers where it went (masked). */
export async function sendStepUpCode(
  deps: PalmStepUpDeps,
  input: StepUpCaller & { purpose: StepUpPurpose },
  now = new Date(),
): Promise<{ channel: 'sms' | 'email'; sentTo: string }> {
  const contact = await ownContactOf(deps.db, input.userId);
  await takeSendAllowance(deps.db, contact.address, input.purpose, now);
  const { code } = await issueOtp(
    deps.db,
    {
      secret: deps.secret,
      identifier: contact.address,
      purpose: input.purpose,
      sessionId: input.sessionId,
    },
    now,
  );
  await deps.messenger.send(codeMessage({ identifier: contact.address, purpose: input.purpose, code }));
  return { channel: contact.channel, sentTo: maskAddress(contact.address) };
}

/** Checks the code: the caller's session may then act for `purpose` until the answered time. */
export async function verifyStepUpCode(
  deps: PalmStepUpDeps,
  input: StepUpCaller & {
    purpose: StepUpPurpose;
    code: string;
    /** Who is trying: the client's address (its failures wait and lock as a sign-in's do). */
    client: string;
  },
  now = new Date(),
): Promise<{ validUntil: Date }> {
  const contact = await ownContactOf(deps.db, input.userId);
  const ok = await consumeOtp(
    { db: deps.db, messenger: deps.messenger, now: () => now },
    {
      secret: deps.secret,
      identifier: contact.address,
      purpose: input.purpose,
      code: input.code,
      sessionId: input.sessionId,
      client: input.client,
    },
  );
  if (!ok) throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  const validUntil = await grantStepUp(deps.db, { ...input, method: 'otp' }, now);
  return { validUntil };
}

/**
 * Records a step-up the session has just earned (a code, a passkey, or a code sign-in at a kiosk): it counts
 * for that session and purpose for STEP_UP_VALID_MS from `now`. Returns until when.
 */
export async function grantStepUp(
  db: Kysely<Schema>,
  input: { sessionId: string; userId: string; purpose: StepUpPurpose; method: StepUpMethod },
  now: Date,
): Promise<Date> {
  const validUntil = new Date(now.getTime() + STEP_UP_VALID_MS);
  await recordStepUp(db, {
    sessionId: input.sessionId,
    userId: input.userId,
    purpose: input.purpose,
    method: input.method,
    verifiedAt: now,
    expiresAt: validUntil,
  });
  return validUntil;
}

/** Refuses (403 stepUpRequired) unless the caller's session has a live step-up for `purpose`. */
export async function assertStepUp(
  db: Kysely<Schema>,
  input: StepUpCaller & { purpose: StepUpPurpose },
  now = new Date(),
): Promise<void> {
  if (!(await liveStepUpUntil(db, { ...input, now }))) throw AppError.of('FORBIDDEN', 'stepUpRequired');
}

/** Until when the caller's session has a live step-up for `purpose`, or null. */
export async function stepUpStatus(
  db: Kysely<Schema>,
  input: StepUpCaller & { purpose: StepUpPurpose },
  now = new Date(),
): Promise<{ validUntil: Date | null }> {
  return { validUntil: (await liveStepUpUntil(db, { ...input, now })) ?? null };
}
