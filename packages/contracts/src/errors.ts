import { z } from 'zod';

/** Error codes shared by server and client; each maps to one HTTP status. */
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** No database host takes writes now (a failover in progress): try again after Retry-After. */
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodeSchema = z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]);

/**
 * Every error answer. The spec's client reads `error` on some screens and `message` on others, so both carry
 * the same text.
 */
export const errorResponseSchema = z.object({
  code: errorCodeSchema,
  error: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
