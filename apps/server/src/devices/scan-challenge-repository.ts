import type { ScanPurpose } from '@hasta/contracts/devices';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';

type Db = Kysely<Schema> | Transaction<Schema>;

/** A single-use scan challenge of one device. */
export interface ScanChallengeRecord {
  nonce: string;
  deviceId: string;
  purpose: ScanPurpose;
  amountPaise: bigint | null;
  receiver: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  idempotencyKey: string | null;
  framesSha256: string | null;
}

export async function insertScanChallenge(
  db: Db,
  challenge: Omit<ScanChallengeRecord, 'usedAt' | 'idempotencyKey' | 'framesSha256'> & { createdAt: Date },
): Promise<void> {
  await db
    .insertInto('scan_challenges')
    .values({
      nonce: challenge.nonce,
      device_id: challenge.deviceId,
      purpose: challenge.purpose,
      amount_paise: challenge.amountPaise,
      receiver: challenge.receiver,
      created_at: challenge.createdAt,
      expires_at: challenge.expiresAt,
      used_at: null,
      idempotency_key: null,
      frames_sha256: null,
    })
    .execute();
}

/** One challenge, locked for the rest of the transaction (its use is decided there). */
export async function lockScanChallenge(
  trx: Transaction<Schema>,
  nonce: string,
): Promise<ScanChallengeRecord | undefined> {
  const row = await trx
    .selectFrom('scan_challenges')
    .selectAll()
    .where('nonce', '=', nonce)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    nonce: row.nonce,
    deviceId: row.device_id,
    purpose: row.purpose,
    amountPaise: row.amount_paise === null ? null : BigInt(row.amount_paise),
    receiver: row.receiver,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    idempotencyKey: row.idempotency_key,
    framesSha256: row.frames_sha256,
  };
}

/** Marks a challenge used, with the request's Idempotency-Key and frames (a retry of it may pass again). */
export async function markScanChallengeUsed(
  trx: Transaction<Schema>,
  use: { nonce: string; usedAt: Date; idempotencyKey: string | null; framesSha256: string },
): Promise<void> {
  await trx
    .updateTable('scan_challenges')
    .set({ used_at: use.usedAt, idempotency_key: use.idempotencyKey, frames_sha256: use.framesSha256 })
    .where('nonce', '=', use.nonce)
    .where('used_at', 'is', null)
    .execute();
}

/** Forgets one device's challenges that expired more than a day ago (each device cleans up after itself). */
export async function pruneScanChallenges(db: Db, deviceId: string, now: Date): Promise<void> {
  await db
    .deleteFrom('scan_challenges')
    .where('device_id', '=', deviceId)
    .where('expires_at', '<', new Date(now.getTime() - 24 * 60 * 60_000))
    .execute();
}

/** How many challenges of a device are unused and unexpired. */
export async function countLiveScanChallenges(db: Db, deviceId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('scan_challenges')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('device_id', '=', deviceId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
