/**
 * Where a guarded page sends a logged-out visitor, and how the origin is remembered: in router location
 * state (`{ from }`) and in the `next` query parameter, so it survives a reload.
 */
export const LOGIN_PATH = '/login';
export const NEXT_PARAM = 'next';

/** Longest origin path kept; anything longer is dropped rather than trusted. */
const MAX_PATH_LENGTH = 2_048;

/** A fixed base to resolve candidates against: only paths that stay on it are same-site. */
const PROBE_ORIGIN = 'https://hasta.invalid';

export interface PathParts {
  pathname: string;
  search?: string;
  hash?: string;
}

export interface LoginRedirectState {
  from: PathParts;
}

/**
 * Returns `candidate` normalized when it is a same-site path (starts with '/', not '//' nor '/\', and
 * resolves to this site), else null. Guards against open redirects through `next`.
 */
export function toSafeInternalPath(candidate: unknown): string | null {
  if (typeof candidate !== 'string') return null;
  if (candidate.length === 0 || candidate.length > MAX_PATH_LENGTH) return null;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(candidate, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function pathOf(parts: PathParts): string {
  return `${parts.pathname}${parts.search ?? ''}${parts.hash ?? ''}`;
}

/** `/login?next=<origin>` for a visitor stopped at `from`. */
export function buildLoginPath(from: PathParts): string {
  const params = new URLSearchParams({ [NEXT_PARAM]: pathOf(from) });
  return `${LOGIN_PATH}?${params.toString()}`;
}

export function isLoginPath(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0];
  return pathname === LOGIN_PATH || pathname === `${LOGIN_PATH}/`;
}
