import type { DeviceKind, DevicePublicKey } from '@hasta/contracts/devices';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

type Db = Kysely<Schema> | Transaction<Schema>;

/** A paired device as the devices domain sees it (never its token's hash). */
export interface Device {
  id: string;
  kind: DeviceKind;
  name: string;
  ownerUserId: string;
  /** The owner's username (null if the account is gone). */
  ownerUsername: string | null;
  merchantId: string | null;
  storeName: string | null;
  kioskId: string | null;
  kioskName: string | null;
  publicKey: DevicePublicKey;
  createdAt: Date;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
}

/** A device with what it did: palm payments taken and palms enrolled through it. */
export interface DeviceWithUse extends Device {
  paymentCount: number;
  enrolmentCount: number;
}

interface DeviceRow {
  id: string;
  kind: DeviceKind;
  name: string;
  owner_user_id: string;
  owner_username: string | null;
  merchant_id: string | null;
  store_name: string | null;
  kiosk_id: string | null;
  kiosk_name: string | null;
  public_key_jwk: string;
  created_at: Date;
  last_seen_at: Date | null;
  revoked_at: Date | null;
}

function toDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    ownerUserId: row.owner_user_id,
    ownerUsername: row.owner_username,
    merchantId: row.merchant_id,
    storeName: row.store_name,
    kioskId: row.kiosk_id,
    kioskName: row.kiosk_name,
    publicKey: JSON.parse(row.public_key_jwk) as DevicePublicKey,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    revokedAt: row.revoked_at,
  };
}

function selectDevices(db: Db) {
  return db
    .selectFrom('devices as d')
    .leftJoin('merchants as m', 'm.id', 'd.merchant_id')
    .leftJoin('kiosks as k', 'k.id', 'd.kiosk_id')
    .leftJoin('users as u', 'u.id', 'd.owner_user_id')
    .select([
      'd.id',
      'd.kind',
      'd.name',
      'd.owner_user_id',
      'u.username as owner_username',
      'd.merchant_id',
      'm.store_name',
      'd.kiosk_id',
      'k.name as kiosk_name',
      'd.public_key_jwk',
      'd.created_at',
      'd.last_seen_at',
      'd.revoked_at',
    ]);
}

export async function insertDevice(
  db: Db,
  device: {
    kind: DeviceKind;
    name: string;
    ownerUserId: string;
    merchantId: string | null;
    kioskId: string | null;
    tokenHash: string;
    publicKey: DevicePublicKey;
    createdAt: Date;
  },
): Promise<string> {
  const { kty, crv, x, y } = device.publicKey;
  const row = await db
    .insertInto('devices')
    .values({
      kind: device.kind,
      name: device.name,
      owner_user_id: device.ownerUserId,
      merchant_id: device.merchantId,
      kiosk_id: device.kioskId,
      token_hash: device.tokenHash,
      public_key_jwk: JSON.stringify({ kty, crv, x, y }),
      created_at: device.createdAt,
      last_seen_at: null,
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findDevice(db: Db, id: string): Promise<Device | undefined> {
  const row = await selectDevices(db).where('d.id', '=', id).executeTakeFirst();
  return row ? toDevice(row) : undefined;
}

/** The device whose token hashes to `tokenHash`, revoked or not. */
export async function findDeviceByTokenHash(db: Db, tokenHash: string): Promise<Device | undefined> {
  const row = await selectDevices(db).where('d.token_hash', '=', tokenHash).executeTakeFirst();
  return row ? toDevice(row) : undefined;
}

/** Notes a device's use, at most once a minute. */
export async function touchDevice(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('devices')
    .set({ last_seen_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', new Date(now.getTime() - 60_000))]),
    )
    .execute();
}

/** Revokes a device (once: the first revocation's time stays); answers whether it was live. */
export async function revokeDevice(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('devices')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Devices with their use, newest first: every one (admin), or those one user owns. */
export async function listDevices(
  db: Db,
  filter: { ownerUserId: string } | { all: true },
  limit: number,
): Promise<DeviceWithUse[]> {
  let query = selectDevices(db).select([
    sql<string>`(SELECT count(*) FROM palm_payments p WHERE p.device_id = d.id)`.as('payment_count'),
    sql<string>`(SELECT count(*) FROM palm_templates t WHERE t.device_id = d.id)`.as('enrolment_count'),
  ]);
  if ('ownerUserId' in filter) query = query.where('d.owner_user_id', '=', filter.ownerUserId);
  const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.id').limit(limit).execute();
  return rows.map((row) => ({
    ...toDevice(row),
    paymentCount: Number(row.payment_count),
    enrolmentCount: Number(row.enrolment_count),
  }));
}

/** The use of one device. */
export async function deviceUse(
  db: Db,
  id: string,
): Promise<{ paymentCount: number; enrolmentCount: number }> {
  const row = await db
    .selectNoFrom([
      sql<string>`(SELECT count(*) FROM palm_payments p WHERE p.device_id = ${id})`.as('payment_count'),
      sql<string>`(SELECT count(*) FROM palm_templates t WHERE t.device_id = ${id})`.as('enrolment_count'),
    ])
    .executeTakeFirstOrThrow();
  return { paymentCount: Number(row.payment_count), enrolmentCount: Number(row.enrolment_count) };
}

/** The palm payments a device took, newest first: their transfer ids. */
export async function devicePaymentIds(db: Db, deviceId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('palm_payments')
    .select('transfer_id')
    .where('device_id', '=', deviceId)
    .orderBy('created_at', 'desc')
    .orderBy('transfer_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.transfer_id);
}

/** Whether a kiosk of the locator exists. */
export async function kioskExists(db: Db, kioskId: string): Promise<boolean> {
  return (
    (await db.selectFrom('kiosks').select('id').where('id', '=', kioskId).executeTakeFirst()) !== undefined
  );
}

// Pairing codes

export interface PairingCode {
  kind: 'kiosk' | 'terminal';
  name: string;
  createdBy: string;
  merchantId: string | null;
  kioskId: string | null;
}

export async function insertPairingCode(
  db: Db,
  code: PairingCode & { codeHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('device_pairing_codes')
    .values({
      code_hash: code.codeHash,
      kind: code.kind,
      name: code.name,
      created_by: code.createdBy,
      merchant_id: code.merchantId,
      kiosk_id: code.kioskId,
      created_at: code.createdAt,
      expires_at: code.expiresAt,
      used_at: null,
      device_id: null,
    })
    .execute();
}

/**
 * Takes a live, unused code (in the pairing's transaction): marks it used and answers what it pairs, or
 * undefined when it is unknown, used or expired. Two devices racing for one code: one wins.
 */
export async function claimPairingCode(
  trx: Transaction<Schema>,
  codeHash: string,
  now: Date,
): Promise<PairingCode | undefined> {
  const row = await trx
    .updateTable('device_pairing_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['kind', 'name', 'created_by', 'merchant_id', 'kiosk_id'])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    kind: row.kind,
    name: row.name,
    createdBy: row.created_by,
    merchantId: row.merchant_id,
    kioskId: row.kiosk_id,
  };
}

export async function linkPairingCode(
  trx: Transaction<Schema>,
  codeHash: string,
  deviceId: string,
): Promise<void> {
  await trx
    .updateTable('device_pairing_codes')
    .set({ device_id: deviceId })
    .where('code_hash', '=', codeHash)
    .execute();
}

/** Forgets pairing codes that expired more than a day ago. */
export async function pruneExpiredPairingCodes(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('device_pairing_codes')
    .where('expires_at', '<', new Date(now.getTime() - 24 * 60 * 60_000))
    .execute();
}

/** Whether a device is live, under a share lock for the rest of the transaction (a revocation waits). */
export async function lockLiveDevice(trx: Transaction<Schema>, id: string): Promise<boolean> {
  const row = await trx
    .selectFrom('devices')
    .select('revoked_at')
    .where('id', '=', id)
    .forShare()
    .executeTakeFirst();
  return row !== undefined && row.revoked_at === null;
}

/** How many of a person's pairing codes are unused and unexpired. */
export async function countLivePairingCodes(db: Db, createdBy: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('device_pairing_codes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('created_by', '=', createdBy)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
