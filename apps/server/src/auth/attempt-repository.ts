import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** The failed attempts on one address since a time: how many, the oldest and the newest. */
export interface FailureStats {
  count: number;
  oldest: Date | null;
  newest: Date | null;
}

/**
 * Runs `work` in a transaction holding the address's attempt lock, so two requests for one address decide
 * and count one after the other (across servers too).
 */
export async function withAttemptLock<T>(
  db: Kysely<Schema>,
  key: string,
  work: (trx: Kysely<Schema>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`attempts:${key}`}))`.execute(trx);
    return work(trx);
  });
}

/** The address's failures since `since`: all clients', or one client's. */
export async function failureStats(
  db: Kysely<Schema>,
  input: { identifier: string; client?: string; since: Date },
): Promise<FailureStats> {
  let query = db
    .selectFrom('otp_events')
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      eb.fn.min('created_at').as('oldest'),
      eb.fn.max('created_at').as('newest'),
    ])
    .where('identifier', '=', input.identifier)
    .where('kind', '=', 'failure')
    .where('created_at', '>', input.since);
  if (input.client !== undefined) query = query.where('client', '=', input.client);
  const row = await query.executeTakeFirstOrThrow();
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return { count: Number(row.count), oldest: date(row.oldest), newest: date(row.newest) };
}

/** Counts a failed attempt of a client on an address; returns its id. */
export async function insertFailure(
  db: Kysely<Schema>,
  input: { identifier: string; client: string; at: Date },
): Promise<string> {
  const row = await db
    .insertInto('otp_events')
    .values({
      identifier: input.identifier,
      kind: 'failure',
      purpose: null,
      client: input.client,
      created_at: input.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A client's success on an address clears that client's failures there (and only its own). */
export async function clearClientFailures(
  db: Kysely<Schema>,
  input: { identifier: string; client: string },
): Promise<void> {
  await db
    .deleteFrom('otp_events')
    .where('identifier', '=', input.identifier)
    .where('kind', '=', 'failure')
    .where('client', '=', input.client)
    .execute();
}

/** Whether the owner of the address was told of failures since `since`. */
export async function ownerToldSince(
  db: Kysely<Schema>,
  input: { identifier: string; since: Date },
): Promise<boolean> {
  const row = await db
    .selectFrom('otp_events')
    .select('id')
    .where('identifier', '=', input.identifier)
    .where('kind', '=', 'owner_notice')
    .where('created_at', '>', input.since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertOwnerNotice(
  db: Kysely<Schema>,
  input: { identifier: string; at: Date },
): Promise<void> {
  await db
    .insertInto('otp_events')
    .values({ identifier: input.identifier, kind: 'owner_notice', purpose: null, created_at: input.at })
    .execute();
}

/** Texts sent since `since`: overall, and by one client. */
export async function smsSentSince(
  db: Kysely<Schema>,
  input: { client: string; since: Date },
): Promise<{ all: number; byClient: number }> {
  const row = await db
    .selectFrom('otp_events')
    .select((eb) => [
      eb.fn.countAll<string>().as('all'),
      eb.fn.count<string>('id').filterWhere('client', '=', input.client).as('by_client'),
    ])
    .where('kind', '=', 'sms')
    .where('created_at', '>', input.since)
    .executeTakeFirstOrThrow();
  return { all: Number(row.all), byClient: Number(row.by_client) };
}

export async function insertSms(
  db: Kysely<Schema>,
  input: { phone: string; client: string; at: Date },
): Promise<void> {
  await db
    .insertInto('otp_events')
    .values({
      identifier: input.phone,
      kind: 'sms',
      purpose: null,
      client: input.client,
      created_at: input.at,
    })
    .execute();
}
