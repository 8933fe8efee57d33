import {
  redeemResponseSchema,
  referralSharedResponseSchema,
  rewardsProgrammeSchema,
  rewardsResponseSchema,
} from '@hasta/contracts/rewards';
import type { RedeemResult, RewardsOverview, RewardsProgramme } from '@hasta/contracts/rewards';

import { apiRequest } from '../../../lib/api-client';

/** The rewards programme's calls (issue 24). */

export const rewardsQueryKey = ['rewards', 'overview'] as const;
export const programmeQueryKey = ['rewards', 'programme'] as const;

/** GET /api/rewards: the signed-in person's points, tier, referrals and newest points entries. */
export function fetchRewards(signal?: AbortSignal): Promise<RewardsOverview> {
  return apiRequest('/api/rewards', {
    schema: rewardsResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** GET /api/rewards/programme: the rules as this server runs them (public). */
export function fetchProgramme(signal?: AbortSignal): Promise<RewardsProgramme> {
  return apiRequest('/api/rewards/programme', {
    schema: rewardsProgrammeSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** POST /api/rewards/redeem {points}, with an Idempotency-Key so a retry redeems once. */
export function redeemPoints(points: number, idempotencyKey: string): Promise<RedeemResult> {
  return apiRequest('/api/rewards/redeem', {
    method: 'POST',
    body: { points },
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: redeemResponseSchema,
  });
}

/** POST /api/rewards/referral/shared: the link was shared once more. */
export function recordShare(): Promise<{ sent: number }> {
  return apiRequest('/api/rewards/referral/shared', { method: 'POST', schema: referralSharedResponseSchema });
}
