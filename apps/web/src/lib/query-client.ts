import { QueryClient } from '@tanstack/react-query';

import { ApiError } from './api-error';

/** Only failures that may pass are retried: no answer, or a 5xx. At most twice. */
const MAX_QUERY_RETRIES = 2;

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_QUERY_RETRIES) return false;
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetryQuery, refetchOnWindowFocus: false, staleTime: 0 },
      mutations: { retry: false },
    },
  });
}

let sharedClient: QueryClient | null = null;

/** The app's one query client: every page and dialog that fetches shares its cache. */
export function sharedQueryClient(): QueryClient {
  sharedClient ??= createQueryClient();
  return sharedClient;
}
