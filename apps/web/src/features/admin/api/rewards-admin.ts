import { rewardsSummarySchema } from '@hasta/contracts/rewards';
import type { RewardsSummary } from '@hasta/contracts/rewards';

import { apiRequest } from '../../../lib/api-client';

export const rewardsSummaryQueryKey = ['admin', 'rewards-summary'] as const;

/** GET /api/rewards/summary (admin): the rewards programme's totals (issue 24). */
export function fetchRewardsSummary(signal?: AbortSignal): Promise<RewardsSummary> {
  return apiRequest('/api/rewards/summary', {
    schema: rewardsSummarySchema,
    ...(signal === undefined ? {} : { signal }),
  });
}
