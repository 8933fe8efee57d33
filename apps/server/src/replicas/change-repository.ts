import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** The channel the change triggers notify on commit (migration 029). */
export const CHANGES_CHANNEL = 'replica_changes';

export type ChangeKind = 'palm' | 'session';

export interface Change {
  seq: bigint;
  kind: ChangeKind;
  userId: string;
  /** The writing transaction's id. */
  xid: bigint;
}

/**
 * A position in the change feed: the snapshot of the read that took it. Every change of a transaction visible
 * in that snapshot has been read; every other change is read from it once it commits. `xmin` (the snapshot's
 * xmin) bounds the rows to look at: a transaction below it had finished when the snapshot was taken.
 */
export interface ChangeCursor {
  xmin: bigint;
  snapshot: string;
}

/**
 * The changes not read at `from` (of transactions not visible in its snapshot, whatever `seq` they took),
 * oldest first, at most `limit`, and the cursor after them: the reading statement's own snapshot, in which
 * exactly the changes read (and those read before) are visible. A transaction still running under that
 * snapshot is not visible in it, so whatever it writes is read from the new cursor once it commits.
 */
export async function readChanges(
  db: Kysely<Schema>,
  from: ChangeCursor,
  limit: number,
): Promise<{ changes: Change[]; next: ChangeCursor }> {
  const result = await sql<{
    snapshot: string;
    xmin: string;
    seq: bigint | null;
    kind: ChangeKind | null;
    user_id: string | null;
    xid: string | null;
  }>`
    WITH snapshot AS (SELECT pg_current_snapshot() AS s)
    SELECT snapshot.s::text AS snapshot, pg_snapshot_xmin(snapshot.s)::text AS xmin,
           c.seq, c.kind, c.user_id, c.xid::text AS xid
    FROM snapshot LEFT JOIN replica_changes c
      ON c.xid >= ${String(from.xmin)}::xid8
     AND NOT pg_visible_in_snapshot(c.xid, ${from.snapshot}::pg_snapshot)
    ORDER BY c.seq
    LIMIT ${limit}`.execute(db);
  const first = result.rows[0];
  if (!first) throw new Error('the change feed read returned no snapshot');
  const changes = result.rows.flatMap((row) =>
    row.seq === null ? [] : [{ seq: row.seq, kind: row.kind!, userId: row.user_id!, xid: BigInt(row.xid!) }],
  );
  return { changes, next: { xmin: BigInt(first.xmin), snapshot: first.snapshot } };
}

/** The cursor of now: every change committed so far is visible in it; every later one is read from it. */
export async function currentCursor(db: Kysely<Schema>): Promise<ChangeCursor> {
  const result = await sql<{ snapshot: string; xmin: string }>`
    SELECT pg_current_snapshot()::text AS snapshot, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(
    db,
  );
  return { xmin: BigInt(result.rows[0]!.xmin), snapshot: result.rows[0]!.snapshot };
}

/** Deletes the changes of transactions below `before` (finished when that cursor was taken). */
export async function pruneChanges(db: Kysely<Schema>, before: ChangeCursor): Promise<number> {
  const result = await sql`DELETE FROM replica_changes WHERE xid < ${String(before.xmin)}::xid8`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
