import { REFERRAL_CLAIM_WINDOW_MS } from '@hasta/contracts/constants';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { accountCreatedAt, addReferral, referrerOfCode } from './rewards-repository';

/**
 * A new account names who referred it (the register page sends the share link's code once registration is
 * complete): the referral counts as joined. Only within a day of the account being made, never one's own
 * code, once per account. It pays out at the new person's first payment (RewardsBook.firstPaymentMade).
 */
export async function claimReferral(
  deps: { db: Kysely<Schema> },
  input: { userId: string; code: string; now: Date },
): Promise<{ joined: true }> {
  const referrer = await referrerOfCode(deps.db, input.code);
  if (referrer === undefined) throw AppError.of('NOT_FOUND', 'referralCodeUnknown');
  if (referrer === input.userId) throw AppError.of('BAD_REQUEST', 'referralSelf');
  const createdAt = await accountCreatedAt(deps.db, input.userId);
  if (createdAt === undefined) throw AppError.of('NOT_FOUND', 'userNotFound');
  if (input.now.getTime() - createdAt.getTime() > REFERRAL_CLAIM_WINDOW_MS)
    throw AppError.of('CONFLICT', 'referralTooLate');
  if (
    !(await addReferral(deps.db, { referredUserId: input.userId, referrerUserId: referrer, now: input.now }))
  )
    throw AppError.of('CONFLICT', 'referralAlreadyJoined');
  return { joined: true };
}
