import { useNavigate } from 'react-router';

import { clearLogin } from '../lib/auth-storage';

/**
 * Logout (spec §2.2): go to /login and forget the local login. The navigation is committed first, so the
 * guarded page being left does not treat the logout as "visitor must log in" and remember itself as the
 * origin. The server session is an httpOnly cookie: we ask the server to end it, fire-and-forget (the API
 * client loads on that first call, keeping it out of the navigation bar's first load).
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return () => {
    import('../lib/logout-request').then(({ requestLogout }) => requestLogout()).catch(() => undefined);
    const forget = (): void => clearLogin();
    Promise.resolve(navigate('/login', { flushSync: true })).then(forget, forget);
  };
}
