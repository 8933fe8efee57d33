import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { sharedQueryClient } from '../lib/query-client';

/**
 * Gives its children the app's query client. Pages get it from the router, so the data layer loads with
 * the first page that fetches rather than with the app shell (see app/router.tsx).
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={sharedQueryClient()}>{children}</QueryClientProvider>;
}
