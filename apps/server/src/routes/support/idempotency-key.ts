import type { FastifyRequest } from 'fastify';

/**
 * The caller's `Idempotency-Key` header, already checked by the route's `idempotencyHeaderSchema`; undefined
 * when the caller sent none. Use cases take it as a plain string and derive the transfer's id from it.
 */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' ? value : undefined;
}
