import { disputeListResponseSchema, notMeResponseSchema } from '@hasta/contracts/palm-trust';
import type { Dispute } from '@hasta/contracts/palm-trust';

import { apiRequest } from '../../../lib/api-client';

/** The signed-in payer's "Not me" reports on their palm payments (issue 21). */

export const disputesQueryKey = (userId: string) => ['wallet', 'disputes', userId] as const;

/** GET /api/palm/disputes: the payer's disputes, newest first. */
export async function fetchMyDisputes(signal?: AbortSignal): Promise<Dispute[]> {
  const answer = await apiRequest('/api/palm/disputes', {
    schema: disputeListResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return answer.disputes;
}

/** POST /api/palm/disputes {transaction_id}: "Not me" on one of the payer's palm payments. */
export function reportPalmPayment(transactionId: string) {
  return apiRequest('/api/palm/disputes', {
    method: 'POST',
    body: { transaction_id: transactionId },
    schema: notMeResponseSchema,
  });
}
