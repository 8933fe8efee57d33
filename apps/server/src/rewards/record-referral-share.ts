import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { countShare, referralCodeOf } from './rewards-repository';

/** The owner shared their referral link (the Rewards tab's Share or Copy): the "sent" count goes up by one. */
export async function recordReferralShare(
  deps: { db: Kysely<Schema> },
  userId: string,
): Promise<{ sent: number }> {
  await referralCodeOf(deps.db, userId);
  return { sent: await countShare(deps.db, userId) };
}
