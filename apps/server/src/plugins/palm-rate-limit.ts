import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Env } from '../env';
import { AppError } from '../lib/app-error';
import { authenticate } from './auth';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Counters kept per limit (least recently used dropped first): a bound on the memory they take. */
const COUNTERS_KEPT = 100_000;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The routes a palm search or a palm payment can run behind: every /Palm/* route and a store's
 * POST /api/transaction (issue 21). Reads (GET /Palm/config) are not limited: they search nothing; nor is a
 * scan's challenge (POST /Palm/challenge, issue 22): it searches nothing, and a device holds a bounded number.
 */
export function isPalmRoute(url: string): boolean {
  return (url.startsWith('/Palm/') && url !== '/Palm/challenge') || url === '/api/transaction';
}

function limitsMethod(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** Counts the request against `limit`; past it, 429 with the catalogue's message and Retry-After. */
async function countOrRefuse(limit: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = await limit(request);
  if (state.isAllowed || !state.isExceeded) return;
  void reply.header('retry-after', String(Math.max(1, state.ttlInSeconds)));
  throw AppError.of('RATE_LIMITED', 'rateLimited');
}

function withHook(existing: RouteOptions['onRequest'], hook: Hook): Hook[] {
  if (existing === undefined) return [hook];
  return [...(Array.isArray(existing) ? existing : [existing]), hook] as Hook[];
}

/**
 * Palm calls are expensive (each scan is searched against every enrolled palm) and each answer says whether
 * a palm belongs to someone, so they have limits of their own beside the API's: per client address (before
 * the body is read), then per session and per signed-in account (the receiver taking the payment, or the
 * person enrolling). A call refused by one limit is not counted by the next. Every route registered after
 * this whose path is a palm route gets them, so a new /Palm/* route cannot be left out.
 */
export function registerPalmRateLimits(app: FastifyInstance, env: Env): void {
  const limiter = (max: number, timeWindow: number, keyGenerator?: (request: FastifyRequest) => string) => {
    const options = {
      max,
      timeWindow,
      ...(keyGenerator === undefined ? {} : { keyGenerator }),
      // The API's limit lets everything outside /api/ through; these limits are for exactly those routes.
      allowList: () => false,
      // Read by the in-memory store each limit gets (its size), though the option's type does not name it.
      cache: COUNTERS_KEPT,
    };
    return app.createRateLimit(options);
  };
  // The client's address, as the API's own limit keys it (an IPv6 client by its /64).
  const perClient = limiter(env.PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE, MINUTE_MS);
  const perSession = limiter(env.PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE, MINUTE_MS, (request) =>
    request.auth ? request.auth.sessionId : '',
  );
  const perAccount = limiter(env.PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR, HOUR_MS, (request) =>
    request.auth ? request.auth.user.id : '',
  );

  const byClient: Hook = async (request, reply) => {
    if (limitsMethod(request.method)) await countOrRefuse(perClient, request, reply);
  };
  const bySignedIn: Hook = async (request, reply) => {
    if (!limitsMethod(request.method)) return;
    // Anonymous calls are refused by the route (401); the client's limit has counted them.
    if (!(await authenticate(request))) return;
    await countOrRefuse(perSession, request, reply);
    await countOrRefuse(perAccount, request, reply);
  };

  app.addHook('onRoute', (route) => {
    if (!isPalmRoute(route.url)) return;
    route.onRequest = withHook(route.onRequest, byClient);
    route.preValidation = withHook(route.preValidation, bySignedIn);
  });
}
