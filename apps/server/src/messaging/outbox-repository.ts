import type { OutboxMessage } from '@hasta/contracts/outbox';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** The newest messages of the dev outbox, all of them or those sent to one address. */
export async function recentOutboxMessages(
  db: Kysely<Schema>,
  filter: { to: string | undefined; limit: number },
): Promise<OutboxMessage[]> {
  let query = db
    .selectFrom('outbox_messages')
    .select(['id', 'channel', 'to_address', 'subject', 'body', 'created_at'])
    .orderBy('id', 'desc')
    .limit(filter.limit);
  if (filter.to !== undefined) query = query.where('to_address', '=', filter.to);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: String(row.id),
    to: row.to_address,
    channel: row.channel,
    subject: row.subject,
    body: row.body,
    created_at: row.created_at.toISOString(),
  }));
}
