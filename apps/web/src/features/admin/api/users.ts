import { adminResetPasswordResponseSchema, adminUsersResponseSchema } from '@hasta/contracts/auth';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

export type AdminUserRow = z.infer<typeof adminUsersResponseSchema>['users'][number];
export type AdminResetPasswordAnswer = z.infer<typeof adminResetPasswordResponseSchema>;

export const adminUsersQueryKey = ['admin', 'users'] as const;

/** GET /api/auth/users: every user but the admins (spec §2.17, §6). */
export async function fetchAdminUsers(signal?: AbortSignal): Promise<AdminUserRow[]> {
  const answer = await apiRequest('/api/auth/users', {
    schema: adminUsersResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return answer.users;
}

/** POST /api/auth/reset-password: a temporary password, shown once; the user must change it at next login. */
export function resetUserPassword(userId: string): Promise<AdminResetPasswordAnswer> {
  return apiRequest('/api/auth/reset-password', {
    method: 'POST',
    body: { userId },
    schema: adminResetPasswordResponseSchema,
  });
}
