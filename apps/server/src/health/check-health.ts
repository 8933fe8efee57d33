import { sql } from 'kysely';
import type { Database, DatabaseKind } from '../db/database';

export interface HealthDeps {
  database: Pick<Database, 'kind' | 'db'>;
}

/** Liveness: the database answers a trivial query (or this throws), and which kind of database it is. */
export async function checkHealth(deps: HealthDeps): Promise<{ status: 'ok'; database: DatabaseKind }> {
  await sql`SELECT 1`.execute(deps.database.db);
  return { status: 'ok', database: deps.database.kind };
}
