import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashToken } from '../auth/secrets';
import { findSession, SESSION_TTL_MS, type AuthContext } from '../auth/sessions';
import { AppError } from '../lib/app-error';
import { assertRecentPasskey, isPendingSecondFactor } from '../passkeys/second-factor';
import { TtlCache } from '../lib/ttl-cache';

/** The session cookie's name outside production. */
export const SESSION_COOKIE = 'hasta_session';
/**
 * In production the cookie is `__Host-` prefixed: browsers accept it only Secure, with Path=/ and no Domain,
 * so neither a sibling subdomain nor a plain-http page can plant or overwrite it.
 */
export const PRODUCTION_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The session cookie's name under an environment: only this name is read. */
export function sessionCookieName(nodeEnv: string): string {
  return nodeEnv === 'production' ? PRODUCTION_SESSION_COOKIE : SESSION_COOKIE;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by `authenticate`; undefined when anonymous. */
    auth: AuthContext | undefined | null;
  }
  interface FastifyInstance {
    /** The time sessions are checked on (idle timeout, lifetime); tests pass a clock they move. */
    sessionClock: () => Date;
    /** Sessions looked up on the hot write paths (see `requireUserRecheckedInTransaction`), one per app. */
    sessionCache: TtlCache<AuthContext>;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads the caller from the session cookie (browsers) or `Authorization: Bearer` (devices). State changes
 * must come from our own origin: with SameSite=Lax cookies and JSON-only bodies this closes CSRF.
 */
export function registerAuth(app: FastifyInstance, options: { now?: () => Date } = {}): void {
  app.decorateRequest('auth', null);
  app.decorate('sessionClock', options.now ?? (() => new Date()));
  app.decorate('sessionCache', new TtlCache<AuthContext>(IDENTITY_CACHE_TTL_MS, IDENTITY_CACHE_SIZE));
  // No cross-origin browser may change anything: the API serves only its own pages (no CORS).
  app.addHook('onRequest', async (request) => checkOrigin(request));
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function checkOrigin(request: FastifyRequest): void {
  if (!UNSAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw AppError.of('FORBIDDEN', 'forbidden');
  }
  if (host !== request.host) throw AppError.of('FORBIDDEN', 'forbidden');
}

/** The caller's session, or undefined when anonymous. */
export async function authenticate(request: FastifyRequest): Promise<AuthContext | undefined> {
  if (request.auth !== null) return request.auth;
  const token = requestToken(request);
  const userAgent = request.headers['user-agent']?.slice(0, 300);
  request.auth = token
    ? await findSession(request.server.database.db, token, request.server.sessionClock(), userAgent)
    : undefined;
  return request.auth;
}

/** The bearer token, else the session cookie (by its name under this environment). */
function requestToken(request: FastifyRequest): string | undefined {
  return bearerToken(request) ?? request.cookies[sessionCookieName(request.server.env.NODE_ENV)];
}

/**
 * Forgets every session this process cached, so a revocation answers at once on the hot paths too (their
 * transactions re-check the session anyway; this closes the cache's 30 seconds).
 */
export function forgetCachedSessions(request: FastifyRequest): void {
  request.server.sessionCache.clear();
}

/**
 * A signed-in caller. An admin or store owner who has passed only the password or code may do nothing but the
 * passkey steps (403 secondFactorRequired; issue 23), which allow it; one who must replace a temporary
 * password may do only that, unless allowed.
 */
export async function requireUser(
  request: FastifyRequest,
  options: { allowPendingPasswordChange?: boolean; allowPendingSecondFactor?: boolean } = {},
): Promise<AuthContext> {
  const auth = await authenticate(request);
  if (!auth) throw AppError.of('UNAUTHORIZED', 'unauthorized');
  if (
    !options.allowPendingSecondFactor &&
    isPendingSecondFactor(auth, { secondFactor: request.server.env.PASSKEY_SECOND_FACTOR })
  )
    throw AppError.of('FORBIDDEN', 'secondFactorRequired');
  if (auth.user.must_change_password && !options.allowPendingPasswordChange) {
    throw AppError.of('FORBIDDEN', 'passwordChangeRequired');
  }
  return auth;
}

/** How long a looked-up session may answer for a token on the paths that re-check it in their transaction. */
const IDENTITY_CACHE_TTL_MS = 30_000;
const IDENTITY_CACHE_SIZE = 50_000;

/**
 * A signed-in caller, for the hot write paths whose own transaction re-checks the session (live, not revoked,
 * no pending password change) where it matters: a token's session and user never change, so the lookup may
 * come from a short-lived cache. Returns whether it did, so a refusal can be explained from the database.
 */
export async function requireUserRecheckedInTransaction(
  request: FastifyRequest,
): Promise<{ auth: AuthContext; cached: boolean }> {
  const token = requestToken(request);
  if (!token) throw AppError.of('UNAUTHORIZED', 'unauthorized');
  const cache = request.server.sessionCache;
  const key = hashToken(token);
  const hit = cache.get(key);
  if (hit) {
    request.auth = hit;
    return { auth: await requireUser(request), cached: true };
  }
  const auth = await requireUser(request);
  cache.set(key, auth);
  return { auth, cached: false };
}

/**
 * The user a request acts for: the caller, or (admins only) the user it names. The spec's clients send the
 * user id in their requests; a user may name only themselves.
 */
export function actingFor(auth: AuthContext, userId: string | undefined): string {
  if (userId === undefined || userId === auth.user.id) return auth.user.id;
  if (auth.user.role !== 'admin') throw AppError.of('FORBIDDEN', 'forbidden');
  return userId;
}

export async function requireAdmin(request: FastifyRequest): Promise<AuthContext> {
  const auth = await requireUser(request);
  if (auth.user.role !== 'admin') throw AppError.of('FORBIDDEN', 'forbidden');
  return auth;
}

/**
 * An admin about to move money (assign balance, refund or reverse, settle a withdrawal): their passkey must
 * have been used in this session within the last 5 minutes, else 403 passkeyReauthRequired (issue 23).
 */
export async function requireAdminWithRecentPasskey(request: FastifyRequest): Promise<AuthContext> {
  const auth = await requireAdmin(request);
  assertRecentPasskey(
    auth,
    { secondFactor: request.server.env.PASSKEY_SECOND_FACTOR },
    request.server.sessionClock(),
  );
  return auth;
}

export function setSessionCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(sessionCookieName(reply.server.env.NODE_ENV), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.server.env.NODE_ENV === 'production',
    path: '/',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  const production = reply.server.env.NODE_ENV === 'production';
  reply.clearCookie(sessionCookieName(reply.server.env.NODE_ENV), { path: '/', secure: production });
}
