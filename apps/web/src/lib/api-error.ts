import type { ErrorCode } from '@hasta/contracts/errors';

/** Server error codes, plus the client's own for answers that never arrived or made no sense. */
export type ApiErrorCode = ErrorCode | 'SERVER_NOT_RESPONDING' | 'NETWORK_UNAVAILABLE' | 'INVALID_RESPONSE';

/**
 * A failed API call. Its own module (no schemas, no zod) so the app shell can recognise one without loading
 * the API client; `api-client.ts` re-exports it.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code: ApiErrorCode;

  constructor(status: number, code: ApiErrorCode, message: string, options?: { cause: unknown }) {
    super(message, options);
    this.status = status;
    this.code = code;
  }
}
