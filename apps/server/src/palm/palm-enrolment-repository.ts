import type { Hand } from '@hasta/contracts/palm';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

export type StoredRequestStatus = 'waiting' | 'approved' | 'declined' | 'expired' | 'failed';

/** An admin-assisted enrolment request as it is stored (the template still sealed). */
export interface StoredEnrolmentRequest {
  id: string;
  userId: string;
  adminUserId: string;
  /** The paired device the admin took the scan on (issue 22); enrolled with the template on approval. */
  deviceId: string | null;
  hand: Hand;
  keyId: string;
  sealedTemplate: Uint8Array | null;
  channel: 'sms' | 'email';
  sentTo: string;
  codeHash: string;
  failedAttempts: number;
  status: StoredRequestStatus;
  createdAt: Date;
  expiresAt: Date;
}

const COLUMNS = [
  'id',
  'user_id',
  'admin_user_id',
  'device_id',
  'hand',
  'key_id',
  'sealed_template',
  'channel',
  'sent_to',
  'code_hash',
  'failed_attempts',
  'status',
  'created_at',
  'expires_at',
] as const;

function toRequest(row: {
  id: string;
  user_id: string;
  admin_user_id: string;
  device_id: string | null;
  hand: Hand;
  key_id: string;
  sealed_template: Uint8Array | null;
  channel: 'sms' | 'email';
  sent_to: string;
  code_hash: string;
  failed_attempts: number;
  status: StoredRequestStatus;
  created_at: Date;
  expires_at: Date;
}): StoredEnrolmentRequest {
  return {
    id: row.id,
    userId: row.user_id,
    adminUserId: row.admin_user_id,
    deviceId: row.device_id,
    hand: row.hand,
    keyId: row.key_id,
    sealedTemplate: row.sealed_template,
    channel: row.channel,
    sentTo: row.sent_to,
    codeHash: row.code_hash,
    failedAttempts: row.failed_attempts,
    status: row.status,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

/**
 * Counts one registration attempt that reaches the palm search against the account's daily allowance, or
 * answers false when `limit` attempts were already made in the last day. Serialised per account, so
 * concurrent attempts never pass the limit together.
 */
export async function takeRegistrationAttempt(
  db: Kysely<Schema>,
  input: { userId: string; limit: number; windowMs: number; now: Date },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`palm-registration:${input.userId}`}))`.execute(trx);
    const row = await trx
      .selectFrom('palm_registration_attempts')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', input.userId)
      .where('created_at', '>', new Date(input.now.getTime() - input.windowMs))
      .executeTakeFirstOrThrow();
    if (Number(row.count) >= input.limit) return false;
    await trx
      .insertInto('palm_registration_attempts')
      .values({ user_id: input.userId, created_at: input.now })
      .execute();
    return true;
  });
}

export async function insertEnrolmentRequest(
  db: Kysely<Schema>,
  request: Omit<StoredEnrolmentRequest, 'failedAttempts' | 'status' | 'sealedTemplate'> & {
    sealedTemplate: Uint8Array;
  },
): Promise<void> {
  await db
    .insertInto('palm_enrolment_requests')
    .values({
      id: request.id,
      user_id: request.userId,
      admin_user_id: request.adminUserId,
      device_id: request.deviceId,
      hand: request.hand,
      key_id: request.keyId,
      sealed_template: request.sealedTemplate,
      channel: request.channel,
      sent_to: request.sentTo,
      code_hash: request.codeHash,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
      resolved_at: null,
    })
    .execute();
}

export async function findEnrolmentRequest(
  db: Kysely<Schema>,
  id: string,
): Promise<StoredEnrolmentRequest | undefined> {
  const row = await db
    .selectFrom('palm_enrolment_requests')
    .select(COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toRequest(row) : undefined;
}

/** The user's requests still waiting at `now` (not expired), newest first. */
export async function waitingEnrolmentRequestsOf(
  db: Kysely<Schema>,
  userId: string,
  now: Date,
): Promise<StoredEnrolmentRequest[]> {
  const rows = await db
    .selectFrom('palm_enrolment_requests')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('status', '=', 'waiting')
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
  return rows.map(toRequest);
}

/** Counts a wrong code on a waiting request; answers the count, or undefined when it is no longer waiting. */
export async function countWrongEnrolmentCode(db: Kysely<Schema>, id: string): Promise<number | undefined> {
  const row = await db
    .updateTable('palm_enrolment_requests')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts;
}

/** Closes a waiting request once (its sealed template dropped); false when it was closed already. */
export async function closeEnrolmentRequest(
  db: Kysely<Schema>,
  input: { id: string; status: Exclude<StoredRequestStatus, 'waiting'>; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('palm_enrolment_requests')
    .set({ status: input.status, resolved_at: input.now, sealed_template: null })
    .where('id', '=', input.id)
    .where('status', '=', 'waiting')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Closes every request still waiting past its expiry (their sealed templates dropped); answers how many. */
export async function closeExpiredEnrolmentRequests(db: Kysely<Schema>, now: Date): Promise<number> {
  const rows = await db
    .updateTable('palm_enrolment_requests')
    .set({ status: 'expired', resolved_at: now, sealed_template: null })
    .where('status', '=', 'waiting')
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.length;
}
