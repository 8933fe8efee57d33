import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Env } from '../env';
import { AppError } from '../lib/app-error';
import { sharedRateLimitStore } from './shared-rate-limits';

const RATE_LIMIT_WINDOW_MS = 60_000;

/** Map tiles for the kiosk locator (OpenStreetMap's standard tile server). */
export const MAP_TILE_ORIGIN = 'https://tile.openstreetmap.org';

/**
 * The policy the web app runs under: everything from our own origin, nothing inline but styles.
 * 'wasm-unsafe-eval' lets the palm scanner compile the WebAssembly of MediaPipe Hands (served from our own
 * origin); it allows WebAssembly only, not eval() or new Function(). MediaPipe needs nothing else: it
 * fetches its files with connect-src 'self', starts no worker and makes no blob: script.
 */
export function contentSecurityPolicy(env: Env): Record<string, string[] | null> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', MAP_TILE_ORIGIN],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'media-src': ["'self'", 'blob:'],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'upgrade-insecure-requests': env.NODE_ENV === 'production' ? [] : null,
  };
}

export async function registerSecurity(app: FastifyInstance, env: Env, db: Kysely<Schema>): Promise<void> {
  // Helmet's middleware is built once (its Fastify plugin rebuilds it, parsing the policy, on every request).
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(env) },
    strictTransportSecurity: env.NODE_ENV === 'production',
    // The camera is needed for palm capture on our own origin.
    permittedCrossDomainPolicies: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('permissions-policy', 'camera=(self), microphone=(), geolocation=(self), payment=()');
  });
  await app.register(cookie, { secret: env.COOKIE_SECRET, hook: 'onRequest' });
  await app.register(rateLimit, {
    global: true,
    max: env.RATE_LIMIT_PER_MINUTE,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    // Only the API is limited here; the built app's files are static and cheap.
    allowList: (request) => !request.url.startsWith('/api/'),
    errorResponseBuilder: () => AppError.of('RATE_LIMITED', 'rateLimited'),
    // This limit in the process's memory; every route's and palm limit in the database, shared by all processes.
    store: sharedRateLimitStore(db, (err) =>
      app.log.warn({ err }, 'pruning the rate limits’ counters failed'),
    ),
  });
}
