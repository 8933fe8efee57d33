import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Env } from '../env';
import { DEVICE_HEADER } from '@hasta/contracts/devices';
import { hashToken } from '../auth/secrets';
import { AppError } from '../lib/app-error';
import { authenticate } from './auth';
import type { NamedCounter } from './shared-rate-limits';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * The routes a palm search or a palm payment can run behind: every /Palm/* route and a store's
 * POST /api/transaction (issue 21). Reads (GET /Palm/config) are not limited: they search nothing.
 */
export function isPalmRoute(url: string): boolean {
  return url.startsWith('/Palm/') || url === '/api/transaction';
}

/** A scan's challenge (issue 22): limited like a palm call, on counters of its own (see below). */
const CHALLENGE_ROUTE = '/Palm/challenge';

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
 *
 * Devices (issue 22): a terminal taking payments with no session beside it is limited per device (its token)
 * as a session would be. Each scan starts with POST /Palm/challenge, which searches nothing: it has the same
 * per-client and per-device limits on counters of its own, so asking a challenge does not use up a scan.
 */
export function registerPalmRateLimits(app: FastifyInstance, env: Env): void {
  const limiter = (
    counter: string,
    max: number,
    timeWindow: number,
    keyGenerator?: (request: FastifyRequest) => string,
  ) => {
    const options = {
      // The counter it keeps in the database, shared by every server process (shared-rate-limits.ts).
      counter,
      max,
      timeWindow,
      ...(keyGenerator === undefined ? {} : { keyGenerator }),
      // The API's limit lets everything outside /api/ through; these limits are for exactly those routes.
      allowList: () => false,
    } satisfies NamedCounter & Record<string, unknown>;
    return app.createRateLimit(options);
  };
  // The client's address, as the API's own limit keys it (an IPv6 client by its /64).
  const perClient = limiter('palm:client', env.PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE, MINUTE_MS);
  const perSession = limiter(
    'palm:session',
    env.PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE,
    MINUTE_MS,
    (request) => (request.auth ? request.auth.sessionId : ''),
  );
  const perAccount = limiter('palm:account', env.PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR, HOUR_MS, (request) =>
    request.auth ? request.auth.user.id : '',
  );
  const deviceKey = (request: FastifyRequest) => {
    const token = request.headers[DEVICE_HEADER];
    return typeof token === 'string' ? hashToken(token) : '';
  };
  const perDevice = limiter('palm:device', env.PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE, MINUTE_MS, deviceKey);
  const challengesPerClient = limiter(
    'palm-challenge:client',
    env.PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE,
    MINUTE_MS,
  );
  const challengesPerDevice = limiter(
    'palm-challenge:device',
    env.PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE,
    MINUTE_MS,
    deviceKey,
  );
  const hasDevice = (request: FastifyRequest) => typeof request.headers[DEVICE_HEADER] === 'string';

  const byClient: Hook = async (request, reply) => {
    if (limitsMethod(request.method)) await countOrRefuse(perClient, request, reply);
  };
  const bySignedIn: Hook = async (request, reply) => {
    if (!limitsMethod(request.method)) return;
    if (!(await authenticate(request))) {
      // A terminal alone, by its device token; other anonymous calls are refused by the route (401), the
      // client's limit has counted them.
      if (hasDevice(request)) await countOrRefuse(perDevice, request, reply);
      return;
    }
    await countOrRefuse(perSession, request, reply);
    await countOrRefuse(perAccount, request, reply);
  };
  const challengeByClient: Hook = async (request, reply) => {
    if (limitsMethod(request.method)) await countOrRefuse(challengesPerClient, request, reply);
  };
  const challengeByDevice: Hook = async (request, reply) => {
    if (limitsMethod(request.method) && hasDevice(request))
      await countOrRefuse(challengesPerDevice, request, reply);
  };

  app.addHook('onRoute', (route) => {
    if (!isPalmRoute(route.url)) return;
    if (route.url === CHALLENGE_ROUTE) {
      route.onRequest = withHook(route.onRequest, challengeByClient);
      route.preValidation = withHook(route.preValidation, challengeByDevice);
      return;
    }
    route.onRequest = withHook(route.onRequest, byClient);
    route.preValidation = withHook(route.preValidation, bySignedIn);
  });
}
