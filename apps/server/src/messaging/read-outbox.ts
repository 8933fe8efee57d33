import type { OutboxMessage } from '@hasta/contracts/outbox';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { recentOutboxMessages } from './outbox-repository';

export interface OutboxDeps {
  db: Kysely<Schema>;
}

/** The most messages one read of the dev outbox returns. */
export const OUTBOX_PAGE_SIZE = 100;

/**
 * The dev outbox: every SMS and email sent outside production, newest first, optionally only those to one
 * address; at most OUTBOX_PAGE_SIZE.
 */
export function readOutbox(
  deps: OutboxDeps,
  query: { to?: string | undefined; limit: number },
): Promise<OutboxMessage[]> {
  return recentOutboxMessages(deps.db, { to: query.to, limit: Math.min(query.limit, OUTBOX_PAGE_SIZE) });
}
