import type { AsyncSubtreeStore, StoredNode } from '@hasta/tlog/subtree-store';
import type { NodeId } from '@hasta/tlog/tree-math';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/**
 * The log's complete-subtree hashes in `tlog_nodes`: one query per proof, one insert per append batch. A
 * node is written once; writing it again (with any hash) fails, which rolls the append back.
 */
export class SqlSubtreeStore implements AsyncSubtreeStore {
  constructor(private readonly db: Kysely<Schema>) {}

  async getMany(ids: readonly NodeId[]): Promise<readonly (Uint8Array | undefined)[]> {
    if (ids.length === 0) return [];
    // One primary-key probe per id, whatever plan the statement gets: a prepared statement's generic plan
    // does not know how many ids there are, and a join may then read the whole table.
    const rows = await sql<{ level: number; idx: bigint; hash: Uint8Array }>`
      SELECT w.level, w.idx, n.hash
      FROM unnest(${ids.map((id) => id.level)}::int[], ${ids.map((id) => String(id.index))}::int8[]) AS w(level, idx)
      CROSS JOIN LATERAL (
        SELECT hash FROM tlog_nodes WHERE tlog_nodes.level = w.level AND tlog_nodes.idx = w.idx LIMIT 1) AS n`.execute(
      this.db,
    );
    const byId = new Map(rows.rows.map((row) => [`${row.level}/${row.idx}`, new Uint8Array(row.hash)]));
    return ids.map((id) => byId.get(`${id.level}/${id.index}`));
  }

  async putMany(nodes: readonly StoredNode[]): Promise<void> {
    if (nodes.length === 0) return;
    await sql`
      INSERT INTO tlog_nodes (level, idx, hash)
      SELECT level, idx, decode(hash, 'hex')
      FROM unnest(${nodes.map((n) => n.level)}::int[], ${nodes.map((n) => String(n.index))}::int8[],
                  ${nodes.map((n) => Buffer.from(n.hash).toString('hex'))}::text[]) AS v(level, idx, hash)`.execute(
      this.db,
    );
  }
}
