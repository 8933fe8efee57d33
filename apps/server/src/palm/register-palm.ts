import type { Hand, PalmScan } from '@hasta/contracts/palm';
import type { EnrolmentRequest } from '@hasta/contracts/palm-trust';
import type { DeviceKind } from '@hasta/contracts/devices';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { takeSendAllowance } from '../auth/otp';
import { hashOtp, newOtpCode } from '../auth/secrets';
import type { PalmConsentRepository } from '../consent/palm-consent-repository';
import { isUniqueViolation } from '../db/errors';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { Messenger } from '../messaging/messenger';
import type { RewardsBook } from '../rewards/rewards-book';
import { maskAddress, notifyOwner, ownContactOf } from '../notices/notify-owner';
import { enrolmentNotice, enrolmentRequestMessage } from './palm-notices';
import {
  closeExpiredEnrolmentRequests,
  insertEnrolmentRequest,
  takeRegistrationAttempt,
  type StoredEnrolmentRequest,
} from './palm-enrolment-repository';
import {
  PalmRegistrationRefusedError,
  type EnrolmentStep,
  type PalmCandidate,
  type PalmService,
} from './palm-service';
import { assertStepUp } from './palm-step-up';

/**
 * Registration attempts per account per day that reach the palm search. A person registers two hands, and
 * a few unsteady scans each: 10 leaves five tries a hand. Someone trying palms against everyone enrolled
 * gets 10 a day per account, each answered as any failed scan (no oracle either way).
 */
export const PALM_REGISTRATION_ATTEMPTS_PER_DAY = 10;
const DAY_MS = 24 * 60 * 60_000;
/** How long an admin-assisted registration waits for its owner's approval. */
export const ENROLMENT_REQUEST_TTL_MS = 10 * 60_000;
/** What an enrolment request's code is hashed for (beside the request's id), so it answers nothing else. */
const REQUEST_CODE_PURPOSE = 'palm_enrol_request';

export interface PalmRegistrationDeps {
  db: Kysely<Schema>;
  consents: Pick<PalmConsentRepository, 'userExists' | 'registeredHands'>;
  palm: Pick<
    PalmService,
    | 'assertHandFree'
    | 'makeCandidate'
    | 'ownerOf'
    | 'commit'
    | 'sealForRequest'
    | 'openRequest'
    | 'ownerOfRequest'
  >;
  messenger: Pick<Messenger, 'send'>;
  /** COOKIE_SECRET: keys the hashes of the codes. */
  secret: string;
  /** The kiosk registration bonus of a palm enrolled on a kiosk device (decision 032, issue 22). */
  rewards: Pick<RewardsBook, 'kioskEnrolment'>;
}

export type RegistrationOutcome =
  { kind: 'enrolled'; palmHash: string } | { kind: 'pending'; request: EnrolmentRequest };

async function existingUser(deps: Pick<PalmRegistrationDeps, 'consents'>, userId: string): Promise<void> {
  if (!(await deps.consents.userExists(userId))) throw AppError.of('NOT_FOUND', 'userNotFound');
}

/** The code of request `id` as it is stored. */
export function enrolmentCodeHash(secret: string, id: string, code: string): string {
  return hashOtp(secret, REQUEST_CODE_PURPOSE, id, code);
}

/** A stored request as its owner or admin sees it ('expired' once its time passed while waiting). */
export function enrolmentRequestView(request: StoredEnrolmentRequest, now = new Date()): EnrolmentRequest {
  const status =
    request.status === 'waiting' && request.expiresAt.getTime() <= now.getTime() ? 'expired' : request.status;
  return {
    id: request.id,
    which_hand: request.hand,
    status,
    channel: request.channel,
    sent_to: request.sentTo,
    created_at: request.createdAt.toISOString(),
    expires_at: request.expiresAt.toISOString(),
  };
}

/**
 * The duplicate search, counted against the account's daily allowance: a palm enrolled by someone else is
 * refused exactly as frames that do not agree are (PalmRegistrationRefusedError), so the answer tells
 * nobody whose palm it is; only the palm's own owner is told it is already theirs.
 */
async function searchDuplicate(
  deps: PalmRegistrationDeps,
  userId: string,
  candidate: PalmCandidate,
  now: Date,
) {
  const allowed = await takeRegistrationAttempt(deps.db, {
    userId,
    limit: PALM_REGISTRATION_ATTEMPTS_PER_DAY,
    windowMs: DAY_MS,
    now,
  });
  if (!allowed) throw AppError.of('RATE_LIMITED', 'palmRegistrationLimit');
  const owner = await deps.palm.ownerOf(candidate);
  if (owner === userId) throw AppError.of('CONFLICT', 'palmAlreadyEnrolled');
  if (owner !== undefined) throw new PalmRegistrationRefusedError();
}

/** Enrols a template on the user's hand and tells them. */
export async function commitEnrolment(
  deps: Pick<PalmRegistrationDeps, 'db' | 'palm' | 'messenger'>,
  input: {
    userId: string;
    enrolment: Parameters<PalmService['commit']>[1];
    byAdmin: boolean;
    /** Also done in the enrolment's transaction (closing the approved request). */
    within?: EnrolmentStep;
    /** The paired device the palm was scanned on (issue 22). */
    deviceId: string | null;
  },
  now = new Date(),
): Promise<{ palmHash: string }> {
  let palmHash: string;
  try {
    ({ palmHash } = await deps.palm.commit(input.userId, input.enrolment, {
      deviceId: input.deviceId,
      ...(input.within ? { within: input.within } : {}),
    }));
  } catch (error) {
    // Two registrations of the same hand at once: the unique (user, hand) lets one through.
    if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'handAlreadyRegistered');
    throw error;
  }
  await notifyOwner(
    { db: deps.db, messenger: deps.messenger },
    input.userId,
    enrolmentNotice({ hand: input.enrolment.hand, at: now, byAdmin: input.byAdmin }),
  );
  return { palmHash };
}

/**
 * Registers one hand of a user, with their consent (spec §2.12, §2.17; issue 21):
 * - one's own hand: the caller's session needs a live 'palm_enrol' step-up; the palm is enrolled at once;
 * - another user's hand (an admin, admin_mode): the scan becomes the protected template, sealed into a
 *   request that waits for the owner, and a code goes to the owner's own phone or email. Nothing is enrolled
 *   until the owner approves (approveEnrolmentRequest); the admin alone never can.
 * The route has already checked that only an admin may name another user.
 */
export async function registerPalm(
  deps: PalmRegistrationDeps,
  input: {
    caller: { userId: string; sessionId: string };
    userId: string;
    hand: Hand;
    scan: PalmScan;
    /** The public origin, for the link in the owner's message. */
    origin: string;
    /** The paired device that took the scan, its signed challenge already checked (issue 22). */
    deviceId: string;
    /** Its kind: a palm enrolled on a kiosk earns the kiosk bonus. */
    deviceKind: DeviceKind;
  },
  now = new Date(),
): Promise<RegistrationOutcome> {
  const { userId, hand } = input;
  const own = userId === input.caller.userId;
  if (own) await assertStepUp(deps.db, { ...input.caller, purpose: 'palm_enrol' }, now);
  await existingUser(deps, userId);
  await deps.palm.assertHandFree(userId, hand);
  const candidate = deps.palm.makeCandidate(hand, input.scan);
  await searchDuplicate(deps, userId, candidate, now);
  if (own)
    return {
      kind: 'enrolled',
      ...(await commitEnrolment(
        deps,
        {
          userId,
          enrolment: candidate,
          byAdmin: false,
          deviceId: input.deviceId,
          // Enrolled at a kiosk (a paired kiosk device signed the scan): the bonus, once per person, in the
          // enrolment's own transaction.
          ...(input.deviceKind === 'kiosk'
            ? { within: (trx: Transaction<Schema>) => deps.rewards.kioskEnrolment(trx, userId) }
            : {}),
        },
        now,
      )),
    };

  const contact = await ownContactOf(deps.db, userId);
  await takeSendAllowance(deps.db, contact.address, REQUEST_CODE_PURPOSE, now);
  // Requests nobody answered in time lose their sealed templates here at the latest.
  await closeExpiredEnrolmentRequests(deps.db, now);
  const id = randomUUID();
  const code = newOtpCode();
  const { keyId, sealed } = deps.palm.sealForRequest(id, candidate);
  const request: StoredEnrolmentRequest = {
    id,
    userId,
    adminUserId: input.caller.userId,
    deviceId: input.deviceId,
    hand,
    keyId,
    sealedTemplate: sealed,
    channel: contact.channel,
    sentTo: maskAddress(contact.address),
    codeHash: enrolmentCodeHash(deps.secret, id, code),
    failedAttempts: 0,
    status: 'waiting',
    createdAt: now,
    expiresAt: new Date(now.getTime() + ENROLMENT_REQUEST_TTL_MS),
  };
  await insertEnrolmentRequest(deps.db, { ...request, sealedTemplate: sealed });
  await notifyOwner(
    { db: deps.db, messenger: deps.messenger },
    userId,
    enrolmentRequestMessage({ hand, code, origin: input.origin }),
  );
  return { kind: 'pending', request: enrolmentRequestView(request, now) };
}

/** Which hands of a user are registered. */
export async function palmRegistrationState(
  deps: Pick<PalmRegistrationDeps, 'consents'>,
  userId: string,
): Promise<{ left: boolean; right: boolean }> {
  await existingUser(deps, userId);
  return deps.consents.registeredHands(userId);
}
