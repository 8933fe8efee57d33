import { palmConfigResponseSchema } from '@hasta/contracts/palm';
import type { z } from 'zod';

import { apiRequest } from '../../lib/api-client';

export type PalmConfig = z.infer<typeof palmConfigResponseSchema>;

export const palmConfigQueryKey = ['palm', 'config'] as const;

/** GET /Palm/config: whether this server accepts the scanner's demo mode, and the largest palm payment. */
export function fetchPalmConfig(signal?: AbortSignal): Promise<PalmConfig> {
  return apiRequest('/Palm/config', { schema: palmConfigResponseSchema, ...(signal ? { signal } : {}) });
}
