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
 * A position in the change feed: every change of a transaction with an id at or above `xmin` may still be
 * unread (it had not committed when the position was taken); every change below it has been read.
 */
export interface ChangeCursor {
  xmin: bigint;
}

/**
 * The changes of every transaction with an id at or above the cursor (some already read: the caller skips
 * them by `seq`), oldest first, at most `limit`, and the cursor after them: the reading statement's snapshot
 * xmin. A transaction still running under that snapshot has an id at or above its xmin, so whatever it
 * writes is read from the new cursor once it commits, whatever `seq` it took.
 */
export async function readChanges(
  db: Kysely<Schema>,
  from: ChangeCursor,
  limit: number,
): Promise<{ changes: Change[]; next: ChangeCursor }> {
  const result = await sql<{
    xmin: string;
    seq: bigint | null;
    kind: ChangeKind | null;
    user_id: string | null;
    xid: string | null;
  }>`
    WITH snapshot AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin)
    SELECT snapshot.xmin, c.seq, c.kind, c.user_id, c.xid::text AS xid
    FROM snapshot LEFT JOIN replica_changes c ON c.xid >= ${String(from.xmin)}::xid8
    ORDER BY c.seq
    LIMIT ${limit}`.execute(db);
  const first = result.rows[0];
  if (!first) throw new Error('the change feed read returned no snapshot');
  const changes = result.rows.flatMap((row) =>
    row.seq === null ? [] : [{ seq: row.seq, kind: row.kind!, userId: row.user_id!, xid: BigInt(row.xid!) }],
  );
  return { changes, next: { xmin: BigInt(first.xmin) } };
}

/** The cursor of now: every change committed so far lies below it or is read from it. */
export async function currentCursor(db: Kysely<Schema>): Promise<ChangeCursor> {
  const result = await sql<{ xmin: string }>`
    SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(db);
  return { xmin: BigInt(result.rows[0]!.xmin) };
}

/** Deletes the changes of transactions below `before` (finished when that cursor was taken). */
export async function pruneChanges(db: Kysely<Schema>, before: ChangeCursor): Promise<number> {
  const result = await sql`DELETE FROM replica_changes WHERE xid < ${String(before.xmin)}::xid8`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
