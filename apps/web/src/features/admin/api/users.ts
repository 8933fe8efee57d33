import {
  ADMIN_USERS_LOOKUP_MAX_IDS,
  ADMIN_USERS_PAGE_SIZE_MAX,
  adminResetPasswordResponseSchema,
  adminUsersResponseSchema,
} from '@hasta/contracts/auth';
import type { AdminUserRow, AdminUsersPage } from '@hasta/contracts/auth';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

export type { AdminUserRow, AdminUsersPage };
export type AdminResetPasswordAnswer = z.infer<typeof adminResetPasswordResponseSchema>;

export const adminUsersQueryKey = ['admin', 'users'] as const;

export interface UsersPageRequest {
  /** The search, as the server reads it (see GET /api/auth/users). Blank: everyone. */
  q?: string;
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: string;
  ids?: readonly string[];
}

/** GET /api/auth/users with only the parameters that differ from the server's defaults. */
export function usersPath(request: UsersPageRequest = {}): string {
  const params = new URLSearchParams();
  const q = request.q?.trim() ?? '';
  if (q !== '') params.set('q', q);
  if (request.limit !== undefined) params.set('limit', String(request.limit));
  if (request.cursor !== undefined) params.set('cursor', request.cursor);
  if (request.ids !== undefined) params.set('ids', request.ids.join(','));
  const query = params.toString();
  return query === '' ? '/api/auth/users' : `/api/auth/users?${query}`;
}

/** One page of users, admins excluded (spec §2.17, §6). */
export function fetchAdminUsersPage(
  request: UsersPageRequest,
  signal?: AbortSignal,
): Promise<AdminUsersPage> {
  return apiRequest(usersPath(request), {
    schema: adminUsersResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** The users with these ids (names for ids shown elsewhere), asked for 100 at a time. */
export async function fetchAdminUsersByIds(
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<AdminUserRow[]> {
  const unique = [...new Set(ids)];
  const chunks: string[][] = [];
  for (let start = 0; start < unique.length; start += ADMIN_USERS_LOOKUP_MAX_IDS) {
    chunks.push(unique.slice(start, start + ADMIN_USERS_LOOKUP_MAX_IDS));
  }
  const pages = await Promise.all(
    chunks.map((chunk) => fetchAdminUsersPage({ ids: chunk, limit: ADMIN_USERS_LOOKUP_MAX_IDS }, signal)),
  );
  return pages.flatMap((page) => page.users);
}

/** The CSV export reads at most this many pages of 500: 200,000 users. */
export const EXPORT_MAX_PAGES = 400;

/**
 * Every user matching a search, page after page (bounded by EXPORT_MAX_PAGES). `complete` is false when the
 * bound stopped it.
 */
export async function fetchAllAdminUsers(
  q: string,
  onProgress?: (loaded: number) => void,
): Promise<{ users: AdminUserRow[]; complete: boolean }> {
  const users: AdminUserRow[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < EXPORT_MAX_PAGES; page += 1) {
    const answer: AdminUsersPage = await fetchAdminUsersPage({
      q,
      limit: ADMIN_USERS_PAGE_SIZE_MAX,
      ...(cursor === null ? {} : { cursor }),
    });
    users.push(...answer.users);
    onProgress?.(users.length);
    cursor = answer.next_cursor;
    if (cursor === null) return { users, complete: true };
  }
  return { users, complete: false };
}

/** POST /api/auth/reset-password: a temporary password, shown once; the user must change it at next login. */
export function resetUserPassword(userId: string): Promise<AdminResetPasswordAnswer> {
  return apiRequest('/api/auth/reset-password', {
    method: 'POST',
    body: { userId },
    schema: adminResetPasswordResponseSchema,
  });
}
