import { kioskListResponseSchema } from '@hasta/contracts/kiosks';
import type { Kiosk } from '@hasta/contracts/kiosks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiRequest } from '../../../lib/api-client';
import { KIOSK_QUERY_MAX_LENGTH } from '../kiosk-search';

/** Kiosks are reference data: a list fetched once is good for a few minutes. */
const KIOSKS_STALE_MS = 5 * 60_000;

function kioskPath(query: string): string {
  return query === '' ? '/api/kiosks' : `/api/kiosks?${new URLSearchParams({ q: query }).toString()}`;
}

/** Kiosks matching a pincode (or its start), city or area; every kiosk for an empty query. */
export function useKiosks(query: string) {
  const q = query.trim().slice(0, KIOSK_QUERY_MAX_LENGTH);
  return useQuery({
    queryKey: ['kiosks', q],
    queryFn: async ({ signal }): Promise<Kiosk[]> =>
      (await apiRequest(kioskPath(q), { schema: kioskListResponseSchema, signal })).kiosks,
    staleTime: KIOSKS_STALE_MS,
    // The list and the markers keep the last answer while the next search runs.
    placeholderData: keepPreviousData,
  });
}
