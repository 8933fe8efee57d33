import { z } from 'zod';

import { apiRequest } from './api-client';

const LOGOUT_ENDPOINT = '/api/auth/logout';

/** Asks the server to end the session (its httpOnly cookie). */
export function requestLogout(): Promise<unknown> {
  return apiRequest(LOGOUT_ENDPOINT, { method: 'POST', schema: z.unknown() });
}
