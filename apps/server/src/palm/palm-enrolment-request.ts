import type { RewardsBook } from '../rewards/rewards-book';
import type { EnrolmentRequest } from '@hasta/contracts/palm-trust';
import { sameHash } from '../auth/secrets';
import { AppError } from '../lib/app-error';
import { PalmRegistrationRefusedError } from './palm-service';
import {
  closeEnrolmentRequest,
  countWrongEnrolmentCode,
  findEnrolmentRequest,
  waitingEnrolmentRequestsOf,
  type StoredEnrolmentRequest,
} from './palm-enrolment-repository';
import {
  commitEnrolment,
  enrolmentCodeHash,
  enrolmentRequestView,
  type PalmRegistrationDeps,
} from './register-palm';

/** Wrong codes before an enrolment request is given up. */
export const ENROLMENT_REQUEST_MAX_FAILURES = 5;

type RequestDeps = Pick<PalmRegistrationDeps, 'db' | 'palm' | 'messenger' | 'secret'>;

/**
 * Request `id` as the caller may see it: its owner, or the admin who started it; anyone else is told it does
 * not exist. A waiting request past its expiry is closed here (its sealed template dropped).
 */
async function requestFor(
  deps: Pick<RequestDeps, 'db'>,
  input: { callerId: string; id: string },
  now: Date,
): Promise<StoredEnrolmentRequest> {
  const request = await findEnrolmentRequest(deps.db, input.id);
  if (!request || (request.userId !== input.callerId && request.adminUserId !== input.callerId))
    throw AppError.of('NOT_FOUND', 'palmEnrolmentRequestNotFound');
  if (request.status === 'waiting' && request.expiresAt.getTime() <= now.getTime()) {
    await closeEnrolmentRequest(deps.db, { id: request.id, status: 'expired', now });
    return { ...request, status: 'expired', sealedTemplate: null };
  }
  return request;
}

/** Only the owner answers a request, on their own session: the admin who started it is refused. */
async function ownersWaitingRequest(
  deps: Pick<RequestDeps, 'db'>,
  input: { callerId: string; id: string },
  now: Date,
): Promise<StoredEnrolmentRequest> {
  const request = await requestFor(deps, input, now);
  if (request.userId !== input.callerId) throw AppError.of('FORBIDDEN', 'forbidden');
  if (request.status !== 'waiting') throw AppError.of('CONFLICT', 'palmEnrolmentRequestClosed');
  return request;
}

export async function viewEnrolmentRequest(
  deps: Pick<RequestDeps, 'db'>,
  input: { callerId: string; id: string },
  now = new Date(),
): Promise<EnrolmentRequest> {
  return enrolmentRequestView(await requestFor(deps, input, now), now);
}

/** The caller's own requests still waiting for their approval. */
export async function listWaitingEnrolmentRequests(
  deps: Pick<RequestDeps, 'db'>,
  userId: string,
  now = new Date(),
): Promise<EnrolmentRequest[]> {
  const waiting = await waitingEnrolmentRequestsOf(deps.db, userId, now);
  return waiting.map((request) => enrolmentRequestView(request, now));
}

/**
 * The owner approves an admin's registration with the code sent to them: the palm is enrolled on their
 * account and they are told. A wrong code is counted; the fifth gives the request up.
 */
export async function approveEnrolmentRequest(
  deps: RequestDeps & {
    /** The kiosk registration bonus: an enrolment with staff's help is the kiosk's path (issue 24). */
    rewards: Pick<RewardsBook, 'kioskEnrolment'>;
  },
  input: { callerId: string; id: string; code: string },
  now = new Date(),
): Promise<{ request: EnrolmentRequest; palmHash: string }> {
  const request = await ownersWaitingRequest(deps, input, now);
  if (!sameHash(enrolmentCodeHash(deps.secret, request.id, input.code), request.codeHash)) {
    const failed = await countWrongEnrolmentCode(deps.db, request.id);
    if (failed !== undefined && failed >= ENROLMENT_REQUEST_MAX_FAILURES) {
      await closeEnrolmentRequest(deps.db, { id: request.id, status: 'failed', now });
      throw AppError.of('RATE_LIMITED', 'palmEnrolmentRequestFailed');
    }
    throw AppError.of('BAD_REQUEST', 'invalidVerificationCode');
  }
  const enrolment =
    request.sealedTemplate &&
    deps.palm.openRequest(request.id, request.hand, { keyId: request.keyId, sealed: request.sealedTemplate });
  // The template key changed since the scan: the admin scans again.
  if (!enrolment) {
    await closeEnrolmentRequest(deps.db, { id: request.id, status: 'failed', now });
    throw AppError.of('CONFLICT', 'palmEnrolmentRequestClosed');
  }
  // The duplicate search again: a palm someone enrolled since the scan is refused as at the scan.
  const owner = await deps.palm.ownerOfRequest(enrolment);
  if (owner !== undefined) {
    await closeEnrolmentRequest(deps.db, { id: request.id, status: 'failed', now });
    if (owner === request.userId) throw AppError.of('CONFLICT', 'palmAlreadyEnrolled');
    throw new PalmRegistrationRefusedError();
  }
  // Closed in the enrolment's own transaction: one approval enrols it however many race with the right code,
  // and a request declined meanwhile enrols nothing.
  const { palmHash } = await commitEnrolment(
    deps,
    {
      userId: request.userId,
      enrolment,
      byAdmin: true,
      deviceId: request.deviceId,
      within: async (trx) => {
        if (!(await closeEnrolmentRequest(trx, { id: request.id, status: 'approved', now })))
          throw AppError.of('CONFLICT', 'palmEnrolmentRequestClosed');
        // Enrolled with staff's help (until kiosk devices exist, issue 22, the kiosk's path): the bonus, once.
        await deps.rewards.kioskEnrolment(trx, request.userId);
      },
    },
    now,
  );
  return { request: enrolmentRequestView({ ...request, status: 'approved' }, now), palmHash };
}

/** The owner declines: nothing is enrolled and the sealed template is dropped. */
export async function declineEnrolmentRequest(
  deps: Pick<RequestDeps, 'db'>,
  input: { callerId: string; id: string },
  now = new Date(),
): Promise<EnrolmentRequest> {
  const request = await ownersWaitingRequest(deps, input, now);
  if (!(await closeEnrolmentRequest(deps.db, { id: request.id, status: 'declined', now })))
    throw AppError.of('CONFLICT', 'palmEnrolmentRequestClosed');
  return enrolmentRequestView({ ...request, status: 'declined' }, now);
}
