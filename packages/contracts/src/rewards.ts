import { z } from 'zod';
import { REWARD_TIERS } from './constants';
import { transactionRecordSchema } from './wallet';

/** Rewards (issue 24): points on the ledger, tiers by spend, the kiosk bonus, referrals and redeeming. */

export const rewardTierSchema = z.enum(REWARD_TIERS);

/** The programme's rules as this server runs them (the figures of spec §9 and the configured ones). */
export const rewardsProgrammeSchema = z.object({
  tiers: z.array(
    z.object({
      tier: rewardTierSchema,
      /** Spend in the last TIER_WINDOW_MONTHS months from which the tier holds, in rupees ("2000.00"). */
      from: z.string(),
      points_per_payment: z.number().int(),
    }),
  ),
  tier_window_months: z.number().int(),
  kiosk_bonus_points: z.number().int(),
  referral_bonus_points: z.number().int(),
  points_per_rupee: z.number().int(),
  redeem_min_points: z.number().int(),
});
export type RewardsProgramme = z.infer<typeof rewardsProgrammeSchema>;

export const rewardReasonSchema = z.enum([
  'palm_payment',
  'kiosk_bonus',
  'referral',
  'take_back',
  'redemption',
]);
export type RewardReason = z.infer<typeof rewardReasonSchema>;

/** One movement of a person's points, newest first: positive for an award, negative for a redemption. */
export const rewardEntrySchema = z.object({
  id: z.string(),
  points: z.number().int(),
  reason: rewardReasonSchema,
  created_at: z.string(),
});
export type RewardEntry = z.infer<typeof rewardEntrySchema>;

// GET /api/rewards (signed in): the Rewards tab (spec §2.11).
export const rewardsResponseSchema = z.object({
  points: z.number().int(),
  tier: rewardTierSchema.nullable(),
  /** Palm and store payments in the last 12 months, in rupees. */
  spend: z.string(),
  /** The next tier and what is left to spend to reach it; null at the top. */
  next_tier: z
    .object({ tier: rewardTierSchema, remaining: z.string(), progress_percent: z.number() })
    .nullable(),
  /** What the next palm payment earns (at the current tier). */
  points_per_payment: z.number().int(),
  /** Points redeemable now (a multiple of the rate, within the balance), and what they pay in rupees. */
  redeemable_points: z.number().int(),
  redeemable_rupees: z.string(),
  referral: z.object({
    code: z.string(),
    /** The share link's path: /register?ref=CODE. */
    link: z.string(),
    sent: z.number().int(),
    joined: z.number().int(),
    rewarded: z.number().int(),
  }),
  recent: z.array(rewardEntrySchema),
  programme: rewardsProgrammeSchema,
});
export type RewardsOverview = z.infer<typeof rewardsResponseSchema>;

// POST /api/rewards/redeem (header Idempotency-Key recommended)
export const redeemRequestSchema = z.object({
  points: z.number().int().positive().max(1_000_000_000),
});
export const redeemResponseSchema = z.object({
  points_redeemed: z.number().int(),
  /** The rupees paid into the wallet ("25.00"). */
  amount: z.string(),
  points: z.number().int(),
  transaction: transactionRecordSchema,
});
export type RedeemResult = z.infer<typeof redeemResponseSchema>;

/** A referral code as shared: 8 capitals and digits (lower case is read as upper case). */
export const referralCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{8}$/);

// POST /api/rewards/referral (signed in, a new account): who referred me.
export const referralClaimRequestSchema = z.object({ code: referralCodeSchema });
export const referralClaimResponseSchema = z.object({ joined: z.literal(true) });

// POST /api/rewards/referral/shared (signed in): the owner shared their link once more.
export const referralSharedResponseSchema = z.object({ sent: z.number().int() });

// GET /api/admin/rewards (admin): the programme's totals.
export const rewardsSummarySchema = z.object({
  points_awarded: z.number().int(),
  points_redeemed: z.number().int(),
  points_taken_back: z.number().int(),
  points_outstanding: z.number().int(),
  /** Rupees paid into wallets for redeemed points (the rewards expense account). */
  rupees_paid: z.string(),
  members: z.object({
    Silver: z.number().int(),
    Gold: z.number().int(),
    Platinum: z.number().int(),
  }),
  referrals_joined: z.number().int(),
  referrals_rewarded: z.number().int(),
});
export type RewardsSummary = z.infer<typeof rewardsSummarySchema>;
