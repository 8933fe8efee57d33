import type { ErrorCode, ErrorResponse } from '@hasta/contracts/errors';
import { messages } from '@hasta/contracts/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../db/errors';
import { AppError } from '../lib/app-error';

const MAX_ISSUES = 20;

function body(code: ErrorCode, message: string, issues?: ErrorResponse['issues']): ErrorResponse {
  return { code, error: message, message, ...(issues ? { issues } : {}) };
}

/**
 * The single error handler: an AppError answers its status and catalogue message; bad input answers 400
 * with the first problem's message (contracts carry the spec's texts); a database that cannot take the
 * request now (no writable host, a lost connection) answers 503 with Retry-After; anything unexpected is
 * logged in full and answered with a generic 500 that reveals nothing.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'application error');
      if (error.retryAfterS !== undefined) void reply.header('retry-after', String(error.retryAfterS));
      return reply.status(error.statusCode).send(body(error.code, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.slice(0, MAX_ISSUES).map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? messages.invalidRequest,
      }));
      return reply
        .status(400)
        .send(body('BAD_REQUEST', issues[0]?.message ?? messages.invalidRequest, issues));
    }
    if (isDatabaseUnavailable(error)) {
      // No writable database now (a failover, a restart): nothing was acknowledged; try again shortly.
      request.log.warn({ reason: error.message }, 'database unavailable');
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return reply.status(503).send(body('UNAVAILABLE', messages.internal));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) return reply.status(429).send(body('RATE_LIMITED', messages.rateLimited));
    if (status === 404) return reply.status(404).send(body('NOT_FOUND', messages.notFound));
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large.
      request.log.info({ err: error }, 'client error');
      return reply.status(status).send(body('BAD_REQUEST', messages.invalidRequest));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('INTERNAL', messages.internal));
  });
}
