import { useIsPresent } from 'motion/react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { isAdmin, useStoredUser } from '../lib/auth-storage';
import { buildLoginPath } from '../lib/login-redirect';
import type { LoginRedirectState } from '../lib/login-redirect';

/** Sends the visitor to /login, remembering the page they were on when the redirect was decided. */
function RedirectToLogin() {
  const location = useLocation();
  // Frozen at mount: the location moves on (to /login) while this page animates out.
  const [redirect] = useState(() => {
    const state: LoginRedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return { to: buildLoginPath(location), state };
  });
  return <Navigate to={redirect.to} replace state={redirect.state} />;
}

/**
 * /user-dashboard and /admin need a stored user (spec §2.1); otherwise the visitor goes to /login, which
 * remembers where they were going in router state and in `?next=` (so a reload keeps it). A page that is
 * already leaving (page transition) renders nothing and redirects nowhere.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const user = useStoredUser();
  const isPresent = useIsPresent();
  if (user === null) return isPresent ? <RedirectToLogin /> : null;
  return children;
}

/** /admin also needs is_admin to be exactly true (spec §6); other users go to their dashboard. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useStoredUser();
  const isPresent = useIsPresent();
  if (user !== null && !isAdmin(user)) return isPresent ? <Navigate to="/user-dashboard" replace /> : null;
  return <RequireUser>{children}</RequireUser>;
}
