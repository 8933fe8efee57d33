import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import { shouldRetryQuery } from './query-client';

describe('shouldRetryQuery', () => {
  it('retries missing answers and server errors at most twice', () => {
    const offline = new ApiError(0, 'SERVER_NOT_RESPONDING', 'x');
    const broken = new ApiError(503, 'INTERNAL', 'x');
    expect(shouldRetryQuery(0, offline)).toBe(true);
    expect(shouldRetryQuery(1, broken)).toBe(true);
    expect(shouldRetryQuery(2, broken)).toBe(false);
  });

  it('never retries client errors or unknown failures', () => {
    expect(shouldRetryQuery(0, new ApiError(401, 'UNAUTHORIZED', 'x'))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(200, 'INVALID_RESPONSE', 'x'))).toBe(false);
    expect(shouldRetryQuery(0, new Error('boom'))).toBe(false);
  });
});
