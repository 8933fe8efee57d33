import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import { ApiError } from '../../../lib/api-client';
import { isLinkRefused, notMeTokenOf } from './not-me-link';

describe('a Not me? link', () => {
  it('takes a token of 20 to 100 URL-safe characters, and nothing else', () => {
    const token = 'Ab3_-'.repeat(8) + 'xyz';
    expect(notMeTokenOf(token)).toBe(token);
    expect(notMeTokenOf(null)).toBeNull();
    expect(notMeTokenOf('')).toBeNull();
    expect(notMeTokenOf('a'.repeat(19))).toBeNull();
    expect(notMeTokenOf('a'.repeat(101))).toBeNull();
    expect(notMeTokenOf(`${'a'.repeat(30)} b`)).toBeNull();
    expect(notMeTokenOf(`${'a'.repeat(30)}/../x`)).toBeNull();
  });

  it('is refused for good on a 4xx answer, but not when rate limited, unanswered or failing', () => {
    expect(isLinkRefused(new ApiError(404, 'NOT_FOUND', messages.notMeLinkInvalid))).toBe(true);
    expect(isLinkRefused(new ApiError(400, 'BAD_REQUEST', messages.notMeLinkInvalid))).toBe(true);
    expect(isLinkRefused(new ApiError(409, 'CONFLICT', messages.disputeAlreadyOpen))).toBe(true);
    expect(isLinkRefused(new ApiError(429, 'RATE_LIMITED', messages.rateLimited))).toBe(false);
    expect(isLinkRefused(new ApiError(0, 'SERVER_NOT_RESPONDING', messages.serverNotResponding))).toBe(false);
    expect(isLinkRefused(new ApiError(500, 'INTERNAL', messages.internal))).toBe(false);
    expect(isLinkRefused(new Error('boom'))).toBe(false);
  });
});
