import { adminDisputeListResponseSchema, resolveDisputeResponseSchema } from '@hasta/contracts/palm-trust';
import type { AdminDispute } from '@hasta/contracts/palm-trust';

import { apiRequest } from '../../../lib/api-client';
import { withPasskeyReauth } from '../../../lib/passkeys';

/** Disputes ("Not me" reports on palm payments) as admins resolve them (issue 21). */

export type DisputeResolution = { action: 'refund' } | { action: 'reject'; reason: string };

export const disputesQueryKey = ['admin', 'disputes'] as const;

/** GET /api/disputes: every dispute, open ones first. */
export async function fetchDisputes(signal?: AbortSignal): Promise<AdminDispute[]> {
  const answer = await apiRequest('/api/disputes', {
    schema: adminDisputeListResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return answer.disputes;
}

/** POST /api/disputes/{id}: refund the payer, or reject with a reason the payer is told. */
export function resolveDispute(id: string, resolution: DisputeResolution) {
  // Moves money: the server may ask for the admin's passkey again first (issue 23).
  return withPasskeyReauth(() =>
    apiRequest(`/api/disputes/${encodeURIComponent(id)}`, {
      method: 'POST',
      body: resolution,
      schema: resolveDisputeResponseSchema,
    }),
  );
}
