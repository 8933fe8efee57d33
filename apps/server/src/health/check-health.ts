import type { HealthResponse } from '@hasta/contracts/health';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import { isDatabaseUnavailable } from '../db/errors';

export interface HealthDeps {
  database: Pick<Database, 'kind' | 'db' | 'topology'>;
}

/**
 * Liveness: the database answers a trivial query (`ok`) or cannot now (`unavailable`: no writable host,
 * the connection lost); with several PostgreSQL hosts, which one is the primary and what the others are,
 * each asked again. Any other failure throws.
 */
export async function checkHealth(deps: HealthDeps): Promise<HealthResponse> {
  let status: HealthResponse['status'] = 'ok';
  try {
    await sql`SELECT 1`.execute(deps.database.db);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    status = 'unavailable';
  }
  const topology = await deps.database.topology({ refresh: true });
  return {
    status,
    database: deps.database.kind,
    ...(topology ? { primary: topology.primary, hosts: topology.hosts } : {}),
  };
}
