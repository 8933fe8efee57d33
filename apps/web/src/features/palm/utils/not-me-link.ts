import { notMeTokenRequestSchema } from '@hasta/contracts/palm-trust';

import { ApiError } from '../../../lib/api-client';

/** The token of a "Not me?" link's `?token=`, or null when there is none or it cannot be one (nothing is asked). */
export function notMeTokenOf(text: string | null): string | null {
  const parsed = notMeTokenRequestSchema.safeParse({ token: text ?? '' });
  return parsed.success ? parsed.data.token : null;
}

/**
 * Whether the server refused the link itself (unknown, spent, expired or malformed token): nothing to retry.
 * A rate limit or no answer at all is not the link's fault: those are shown as they are, with a retry.
 */
export function isLinkRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}
