import { useNavigate } from 'react-router';
import { z } from 'zod';

import { apiRequest } from '../lib/api-client';
import { clearLogin } from '../lib/auth-storage';

const LOGOUT_ENDPOINT = '/api/auth/logout';

/**
 * Logout (spec §2.2): go to /login and forget the local login. The navigation is committed first, so the
 * guarded page being left does not treat the logout as "visitor must log in" and remember itself as the
 * origin. The server session is an httpOnly cookie: we ask the server to end it, fire-and-forget.
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return () => {
    apiRequest(LOGOUT_ENDPOINT, { method: 'POST', schema: z.unknown() }).catch(() => undefined);
    const forget = (): void => clearLogin();
    Promise.resolve(navigate('/login', { flushSync: true })).then(forget, forget);
  };
}
