import { z } from 'zod';

/** One PostgreSQL host of DATABASE_URL as the server last asked it. */
export const databaseHostSchema = z.object({
  /** host:port as written in DATABASE_URL. */
  address: z.string(),
  role: z.enum(['primary', 'standby', 'read-only', 'unreachable']),
});
export type DatabaseHostState = z.infer<typeof databaseHostSchema>;

/**
 * 200 `ok` when the database answers; 503 `unavailable` (with Retry-After) while it does not, e.g. no host is
 * writable during a failover. With several PostgreSQL hosts, `primary` and `hosts` say which is which.
 */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
  /** The host writes go to, null while none is writable (several hosts in DATABASE_URL only). */
  primary: z.string().nullable().optional(),
  hosts: z.array(databaseHostSchema).optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
