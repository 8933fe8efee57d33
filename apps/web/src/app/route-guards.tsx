import { useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigation } from 'react-router';

import { usePageIsPresent } from '../components/page-presence';
import { isAdmin, isMerchant, useStoredUser } from '../lib/auth-storage';
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
 * /user-dashboard, /admin and the person's pages (/palm-register, /transfer, /receive, /history) need a
 * stored user (spec §2.1, issue 27); otherwise the visitor goes to /login, which
 * remembers where they were going in router state and in `?next=` (so a reload keeps it). A page that is
 * already leaving (page transition), or being left (the router is loading the next page, as after Logout),
 * renders nothing and redirects nowhere.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const user = useStoredUser();
  const isPresent = usePageIsPresent();
  const navigating = useNavigation().state !== 'idle';
  if (user === null) return isPresent && !navigating ? <RedirectToLogin /> : null;
  return children;
}

/** /admin also needs is_admin to be exactly true (spec §6); other users go to their dashboard. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useStoredUser();
  const isPresent = usePageIsPresent();
  if (user !== null && !isAdmin(user)) return isPresent ? <Navigate to="/user-dashboard" replace /> : null;
  return <RequireUser>{children}</RequireUser>;
}

/**
 * /store-dashboard needs a stored merchant login (the server refuses every merchant call to anyone else; this
 * is only navigation). Logged out: /login, remembering the way back. Logged in as someone else: the page says
 * whom it is for through `notMerchant`, instead of loading figures the server would refuse.
 */
export function RequireMerchant({ children, notMerchant }: { children: ReactNode; notMerchant: ReactNode }) {
  const user = useStoredUser();
  if (user !== null && !isMerchant(user)) return notMerchant;
  return <RequireUser>{children}</RequireUser>;
}
