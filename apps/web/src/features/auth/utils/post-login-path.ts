import { NEXT_PARAM, isLoginPath, pathOf, toSafeInternalPath } from '../../../lib/login-redirect';
import type { PathParts } from '../../../lib/login-redirect';

/** What the login page knows about how it was reached: its query and its router state. */
export interface LoginLocation {
  search: string;
  state?: unknown;
}

export const ADMIN_HOME_PATH = '/admin';
export const USER_HOME_PATH = '/user-dashboard';
export const MERCHANT_HOME_PATH = '/store-dashboard';

function isPathParts(value: unknown): value is PathParts {
  if (typeof value !== 'object' || value === null) return false;
  const parts = value as Record<string, unknown>;
  return (
    typeof parts['pathname'] === 'string' &&
    (parts['search'] === undefined || typeof parts['search'] === 'string') &&
    (parts['hash'] === undefined || typeof parts['hash'] === 'string')
  );
}

function originFromState(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const from = (state as Record<string, unknown>)['from'];
  return isPathParts(from) ? toSafeInternalPath(pathOf(from)) : null;
}

function originFromSearch(search: string): string | null {
  return toSafeInternalPath(new URLSearchParams(search).get(NEXT_PARAM));
}

/**
 * Where to go after a successful login (spec §2.8, §2.1): back to the remembered origin when there is a
 * same-site one (router state first, then `?next=`), else /admin for an admin, /store-dashboard for a merchant
 * and /user-dashboard for anyone else.
 */
export function getPostLoginPath(
  location: LoginLocation,
  user: { is_admin: boolean; role?: string | null },
): string {
  const origin = originFromState(location.state) ?? originFromSearch(location.search);
  if (origin !== null && !isLoginPath(origin)) return origin;
  if (user.is_admin) return ADMIN_HOME_PATH;
  return user.role === 'merchant' ? MERCHANT_HOME_PATH : USER_HOME_PATH;
}

/** True when the visitor was sent to the login page from somewhere they wanted to go. */
export function hasRememberedOrigin(location: LoginLocation): boolean {
  const origin = originFromState(location.state) ?? originFromSearch(location.search);
  return origin !== null && !isLoginPath(origin);
}
