import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A counter's window has passed (the row aliased `c`, or the table's own row when `table` is empty). */
const windowPassed = (table: 'c.' | '') =>
  sql`${sql.raw(table)}window_started_at + ${sql.raw(table)}window_ms * interval '1 millisecond' <= statement_timestamp()`;

/**
 * Counts one hit of `keyHash` against the limit `counter` (migration 034) and answers the hits in its window
 * and the milliseconds the window has left. A fixed window, on the database's clock so that every process
 * counts alike: the first hit starts it, and the first hit after `windowMs` starts it again at 1.
 */
export async function countHit(
  db: Kysely<Schema>,
  hit: { counter: string; keyHash: string; windowMs: number },
): Promise<{ hits: number; ttlMs: number }> {
  const over = windowPassed('c.');
  const { rows } = await sql<{ hits: number; ttl_ms: number }>`
    INSERT INTO rate_limit_counters AS c (counter, key_hash, window_started_at, window_ms, hits)
    VALUES (${hit.counter}, ${hit.keyHash}, statement_timestamp(), ${hit.windowMs}, 1)
    ON CONFLICT (counter, key_hash) DO UPDATE SET
      hits = CASE WHEN ${over} THEN 1 ELSE LEAST(c.hits, 2147483646) + 1 END,
      window_started_at = CASE WHEN ${over} THEN statement_timestamp() ELSE c.window_started_at END,
      window_ms = EXCLUDED.window_ms
    RETURNING hits,
      GREATEST(0, window_ms - extract(epoch FROM statement_timestamp() - window_started_at) * 1000)::float8
        AS ttl_ms`.execute(db);
  const row = rows[0]!;
  return { hits: Number(row.hits), ttlMs: Math.ceil(Number(row.ttl_ms)) };
}

/** Deletes the counters whose window has passed; answers how many. */
export async function pruneCounters(db: Kysely<Schema>): Promise<number> {
  const result = await sql`
    DELETE FROM rate_limit_counters WHERE ${windowPassed('')}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
