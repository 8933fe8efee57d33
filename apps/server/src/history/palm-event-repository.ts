import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A palm event as a person's history shows it: an enrolment or a scan. */
export interface PalmHistoryEvent {
  /** The order of writing of palm events: the newest has the highest. */
  seq: bigint;
  type: 'palm.enrolled' | 'palm.scan';
  /** A scan's outcome as recorded; null for an enrolment and for scans recorded without one. */
  status: string | null;
  similarity: number | null;
  created_at: Date;
}

/** A user's enrolments and scans, newest first, only those written before `beforeSeq` when it is given. */
export async function palmHistoryEvents(
  db: Kysely<Schema>,
  options: { userId: string; beforeSeq: bigint | undefined; limit: number },
): Promise<PalmHistoryEvent[]> {
  const { beforeSeq } = options;
  const rows = await db
    .selectFrom('palm_events')
    .select(['seq', 'type', 'status', 'similarity', 'created_at'])
    .where('user_id', '=', options.userId)
    .where('type', 'in', ['palm.enrolled', 'palm.scan'])
    .$if(beforeSeq !== undefined, (query) => query.where('seq', '<', String(beforeSeq)))
    .orderBy('seq', 'desc')
    .limit(options.limit)
    .execute();
  return rows.map((row) => ({
    seq: BigInt(row.seq),
    type: row.type === 'palm.enrolled' ? 'palm.enrolled' : 'palm.scan',
    status: row.status,
    similarity: row.similarity,
    created_at: new Date(row.created_at),
  }));
}
