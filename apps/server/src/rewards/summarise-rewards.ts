import type { RewardsSummary } from '@hasta/contracts/rewards';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { rewardsTotals, spendsSince } from './rewards-repository';
import { tierFor, tierWindowStart } from './rewards-rules';

/** The admin's rewards summary: points awarded, redeemed, taken back and held; rupees paid; tier members. */
export async function summariseRewards(deps: { db: Kysely<Schema> }, now: Date): Promise<RewardsSummary> {
  const totals = await rewardsTotals(deps.db);
  const members = { Silver: 0, Gold: 0, Platinum: 0 };
  for (const spend of await spendsSince(deps.db, tierWindowStart(now))) {
    const tier = tierFor(spend);
    if (tier !== null) members[tier] += 1;
  }
  return {
    points_awarded: Number(totals.awarded),
    points_redeemed: Number(totals.redeemed),
    points_taken_back: Number(totals.takenBack),
    points_outstanding: Number(totals.outstanding),
    rupees_paid: paiseToRupeesText(totals.rupeesPaidPaise),
    members,
    referrals_joined: totals.referralsJoined,
    referrals_rewarded: totals.referralsRewarded,
  };
}
