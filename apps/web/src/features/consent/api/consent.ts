import { consentChangeResponseSchema, consentResponseSchema } from '@hasta/contracts/palm';
import type { ConsentResponse } from '@hasta/contracts/palm';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

export type { ConsentResponse };
export type ConsentEvent = ConsentResponse['events'][number];
export type ConsentChangeAnswer = z.infer<typeof consentChangeResponseSchema>;

export const consentQueryKey = ['consent'] as const;

/** GET /api/consent: the caller's palm consent, registered hands and consent events (newest first). */
export function fetchConsent(signal?: AbortSignal): Promise<ConsentResponse> {
  return apiRequest('/api/consent', { schema: consentResponseSchema, ...(signal ? { signal } : {}) });
}

export type ConsentChange = 'withdraw' | 'restore' | 'erase';

/** POST /api/consent/{withdraw|restore|erase}. */
export function changeConsent(change: ConsentChange): Promise<ConsentChangeAnswer> {
  return apiRequest(`/api/consent/${change}`, {
    method: 'POST',
    body: {},
    schema: consentChangeResponseSchema,
  });
}
