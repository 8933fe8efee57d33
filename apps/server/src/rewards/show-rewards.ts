import type { RewardsOverview } from '@hasta/contracts/rewards';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { balanceOf } from '@hasta/ledger/rules';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { RewardsConfig } from '../env';
import type { Ledger } from '../ledger/ledger';
import { recentRewardEntries, referralCodeOf, referralCounts, spendSince } from './rewards-repository';
import {
  nextTier,
  pointsPerPayment,
  programmeOf,
  redeemable,
  tierFor,
  tierWindowStart,
} from './rewards-rules';

/** Points entries the Rewards tab lists. */
export const RECENT_REWARDS_COUNT = 10;

export interface RewardsDeps {
  db: Kysely<Schema>;
  ledger: Pick<Ledger, 'ensurePointsAccount' | 'account' | 'now'>;
  config: RewardsConfig;
}

/** A person's points balance (posted). */
export async function pointsBalance(deps: Pick<RewardsDeps, 'ledger'>, userId: string): Promise<bigint> {
  const account = await deps.ledger.account(await deps.ledger.ensurePointsAccount(userId));
  if (!account) throw new Error(`points account of ${userId} is missing`);
  return balanceOf(account);
}

/**
 * The Rewards tab (spec §2.11, from the server): the points balance, the tier from the last 12 months' palm
 * and store payments with the progress to the next, what the next palm payment earns, what can be redeemed,
 * the referral code with its counts (sent, joined, rewarded) and the newest points entries.
 */
export async function showRewards(deps: RewardsDeps, userId: string): Promise<RewardsOverview> {
  const now = deps.ledger.now();
  const points = await pointsBalance(deps, userId);
  const spend = await spendSince(deps.db, userId, { from: tierWindowStart(now) });
  const tier = tierFor(spend);
  const next = nextTier(spend);
  const { code, shares } = await referralCodeOf(deps.db, userId);
  const counts = await referralCounts(deps.db, userId);
  const recent = await recentRewardEntries(deps.db, userId, RECENT_REWARDS_COUNT);
  const canRedeem = redeemable(Number(points), deps.config);
  const enough = canRedeem.points >= deps.config.redeemMinPoints;
  return {
    points: Number(points),
    tier,
    spend: paiseToRupeesText(spend),
    next_tier:
      next === null
        ? null
        : {
            tier: next.tier,
            remaining: paiseToRupeesText(next.remainingPaise),
            progress_percent: next.progressPercent,
          },
    points_per_payment: pointsPerPayment(tier),
    redeemable_points: enough ? canRedeem.points : 0,
    redeemable_rupees: paiseToRupeesText(enough ? canRedeem.paise : 0n),
    referral: {
      code,
      link: `/register?ref=${code}`,
      sent: shares,
      joined: counts.joined,
      rewarded: counts.rewarded,
    },
    recent: recent.map((entry) => ({
      id: entry.transferId,
      points: Number(entry.points),
      reason: entry.reason,
      created_at: entry.createdAt.toISOString(),
    })),
    programme: programmeOf(deps.config),
  };
}
