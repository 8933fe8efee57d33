import {
  KIOSK_REGISTRATION_BONUS_POINTS,
  POINTS_PER_SCAN,
  REWARD_TIERS,
  TIER_THRESHOLDS_RUPEES,
  TIER_WINDOW_MONTHS,
  type RewardTier,
} from '@hasta/contracts/constants';
import type { RewardsProgramme } from '@hasta/contracts/rewards';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { RewardsConfig } from '../env';

/**
 * The programme's rules without a database: tiers by spend (spec §9: Silver from ₹2,000, Gold from ₹5,000,
 * Platinum from ₹10,000 in the last 12 months), points per palm payment by tier (5 / 10 / 20; none below
 * Silver), and the configured referral bonus and redemption rate.
 */

/** Where each tier starts, in paise, highest first. */
const TIERS_HIGHEST_FIRST = [...REWARD_TIERS].reverse().map((tier) => ({
  tier,
  fromPaise: BigInt(TIER_THRESHOLDS_RUPEES[tier]) * 100n,
}));

/** The tier a spend (paise, the last 12 months) reaches; null below Silver. */
export function tierFor(spendPaise: bigint): RewardTier | null {
  return TIERS_HIGHEST_FIRST.find((t) => spendPaise >= t.fromPaise)?.tier ?? null;
}

/** Points one palm payment earns at a tier (the payer's tier before that payment). */
export function pointsPerPayment(tier: RewardTier | null): number {
  return tier === null ? 0 : POINTS_PER_SCAN[tier];
}

/** The next tier above a spend and how far it is; null at the top. */
export function nextTier(
  spendPaise: bigint,
): { tier: RewardTier; remainingPaise: bigint; progressPercent: number } | null {
  const current = tierFor(spendPaise);
  const index = current === null ? 0 : REWARD_TIERS.indexOf(current) + 1;
  const next = REWARD_TIERS[index];
  if (next === undefined) return null;
  const fromPaise = BigInt(TIER_THRESHOLDS_RUPEES[next]) * 100n;
  const previousPaise = current === null ? 0n : BigInt(TIER_THRESHOLDS_RUPEES[current]) * 100n;
  const span = fromPaise - previousPaise;
  // Whole percent of the way from the current tier's start to the next one's, rounded down.
  const progressPercent = Number(((spendPaise - previousPaise) * 100n) / span);
  return { tier: next, remainingPaise: fromPaise - spendPaise, progressPercent };
}

/** The start of the tier window ending at `now`: the same time TIER_WINDOW_MONTHS calendar months before. */
export function tierWindowStart(now: Date): Date {
  const start = new Date(now.getTime());
  start.setUTCMonth(start.getUTCMonth() - TIER_WINDOW_MONTHS);
  return start;
}

/** The largest number of points at most `points` that redeems for whole rupees, and those rupees (paise). */
export function redeemable(points: number, config: RewardsConfig): { points: number; paise: bigint } {
  const rupees = Math.floor(points / config.pointsPerRupee);
  return { points: rupees * config.pointsPerRupee, paise: BigInt(rupees) * 100n };
}

/** The programme as the pages show it. */
export function programmeOf(config: RewardsConfig): RewardsProgramme {
  return {
    tiers: REWARD_TIERS.map((tier) => ({
      tier,
      from: paiseToRupeesText(BigInt(TIER_THRESHOLDS_RUPEES[tier]) * 100n),
      points_per_payment: POINTS_PER_SCAN[tier],
    })),
    tier_window_months: TIER_WINDOW_MONTHS,
    kiosk_bonus_points: KIOSK_REGISTRATION_BONUS_POINTS,
    referral_bonus_points: config.referralBonusPoints,
    points_per_rupee: config.pointsPerRupee,
    redeem_min_points: config.redeemMinPoints,
  };
}
