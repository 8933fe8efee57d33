import type { FastifyRequest } from 'fastify';

/** The site's address for links in messages: PUBLIC_URL (required in production), else the request's own. */
export function publicOrigin(request: FastifyRequest): string {
  return request.server.env.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
}
