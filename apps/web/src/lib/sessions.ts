import { sessionsListResponseSchema, sessionsRevokedResponseSchema } from '@hasta/contracts/auth';
import type { z } from 'zod';

import { apiRequest } from './api-client';

/** The signed-in user's own sessions (Settings): the list, "sign out everywhere else", one by one. */
export const SESSIONS_ENDPOINT = '/api/sessions';

export type SessionsAnswer = z.infer<typeof sessionsListResponseSchema>;
export type SessionsRevokedAnswer = z.infer<typeof sessionsRevokedResponseSchema>;

export function listSessions(): Promise<SessionsAnswer> {
  return apiRequest(SESSIONS_ENDPOINT, { method: 'GET', schema: sessionsListResponseSchema });
}

export function revokeOtherSessions(): Promise<SessionsRevokedAnswer> {
  return apiRequest(`${SESSIONS_ENDPOINT}/revoke-others`, {
    method: 'POST',
    body: {},
    schema: sessionsRevokedResponseSchema,
  });
}

export function revokeSession(id: string): Promise<SessionsRevokedAnswer> {
  return apiRequest(`${SESSIONS_ENDPOINT}/${encodeURIComponent(id)}/revoke`, {
    method: 'POST',
    body: {},
    schema: sessionsRevokedResponseSchema,
  });
}
