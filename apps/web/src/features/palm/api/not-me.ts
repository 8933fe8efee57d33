import { notMePreviewResponseSchema, notMeResponseSchema } from '@hasta/contracts/palm-trust';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

/**
 * "Not me" from the link in a palm payment's notice: no login, the link's one-time token is the authority.
 * The token travels in a POST body, never in an address the server would log.
 */

export type NotMePreview = z.infer<typeof notMePreviewResponseSchema>;

export const notMePreviewQueryKey = (token: string) => ['palm', 'not-me', token] as const;

/** POST /api/palm/not-me/preview {token}: the payment the link is about (amount, payee, time). */
export function previewNotMe(token: string, signal?: AbortSignal): Promise<NotMePreview> {
  return apiRequest('/api/palm/not-me/preview', {
    method: 'POST',
    body: { token },
    schema: notMePreviewResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** POST /api/palm/not-me {token}: palm pay is paused and a dispute is opened; the token is spent. */
export function reportNotMe(token: string) {
  return apiRequest('/api/palm/not-me', { method: 'POST', body: { token }, schema: notMeResponseSchema });
}
