import {
  redeemRequestSchema,
  redeemResponseSchema,
  referralClaimRequestSchema,
  referralClaimResponseSchema,
  referralSharedResponseSchema,
  rewardsProgrammeSchema,
  rewardsResponseSchema,
  rewardsSummarySchema,
} from '@hasta/contracts/rewards';
import { idempotencyHeaderSchema } from '@hasta/contracts/wallet';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Ledger } from '../ledger/ledger';
import { requireAdmin, requireUser } from '../plugins/auth';
import { claimReferral } from '../rewards/claim-referral';
import { recordReferralShare } from '../rewards/record-referral-share';
import { redeemPoints } from '../rewards/redeem-points';
import type { RewardsBook } from '../rewards/rewards-book';
import { programmeOf } from '../rewards/rewards-rules';
import { showRewards, type RewardsDeps } from '../rewards/show-rewards';
import { summariseRewards } from '../rewards/summarise-rewards';
import { idempotencyKey } from './support/idempotency-key';

export interface RewardsRouteDeps {
  db: RewardsDeps['db'];
  ledger: Ledger;
  rewards: Pick<RewardsBook, 'config'>;
}

/** Rewards (issue 24): the Rewards tab, redeeming, referrals, the programme's rules and the admin's totals. */
export const rewardsRoutes: FastifyPluginAsyncZod<{ deps: RewardsRouteDeps }> = async (app, { deps }) => {
  const tags = ['rewards'];
  const useCaseDeps = { db: deps.db, ledger: deps.ledger, config: deps.rewards.config };

  app.get(
    '/rewards/programme',
    {
      schema: {
        tags,
        summary: 'The rewards programme’s rules: tiers, points per palm payment, bonuses, redemption rate',
        response: { 200: rewardsProgrammeSchema },
      },
    },
    async () => programmeOf(deps.rewards.config),
  );

  app.get(
    '/rewards',
    {
      schema: {
        tags,
        summary: 'The signed-in person’s points, tier and progress, referrals and newest points entries',
        response: { 200: rewardsResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return showRewards(useCaseDeps, auth.user.id);
    },
  );

  app.post(
    '/rewards/redeem',
    {
      schema: {
        tags,
        summary: 'Redeem points for wallet rupees at the programme’s rate, in whole rupees, from its minimum',
        headers: idempotencyHeaderSchema,
        body: redeemRequestSchema,
        response: { 200: redeemResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return redeemPoints(useCaseDeps, {
        userId: auth.user.id,
        points: request.body.points,
        idempotencyKey: idempotencyKey(request),
      });
    },
  );

  app.post(
    '/rewards/referral',
    {
      schema: {
        tags,
        summary: 'A new account names the referral code it registered with (the share link’s ref)',
        body: referralClaimRequestSchema,
        response: { 200: referralClaimResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return claimReferral(useCaseDeps, {
        userId: auth.user.id,
        code: request.body.code,
        now: deps.ledger.now(),
      });
    },
  );

  app.post(
    '/rewards/referral/shared',
    {
      schema: {
        tags,
        summary: 'The signed-in person shared their referral link (counted as sent)',
        response: { 200: referralSharedResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return recordReferralShare(useCaseDeps, auth.user.id);
    },
  );

  app.get(
    '/rewards/summary',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: the rewards programme’s totals (points awarded, redeemed, held; rupees paid; tiers)',
        response: { 200: rewardsSummarySchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return summariseRewards(useCaseDeps, deps.ledger.now());
    },
  );
};
