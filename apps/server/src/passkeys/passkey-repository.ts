import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A stored passkey, as the ceremonies and the owner's list read it. */
export interface StoredPasskey {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: bigint;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const COLUMNS = [
  'id',
  'user_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'name',
  'created_at',
  'last_used_at',
] as const;

function toPasskey(row: {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: bigint;
  transports: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}): StoredPasskey {
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: new Uint8Array(row.public_key),
    counter: BigInt(row.counter),
    transports: row.transports === '' ? [] : row.transports.split(','),
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** A user's passkeys, oldest first. */
export async function passkeysOf(db: Kysely<Schema>, userId: string): Promise<StoredPasskey[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(100)
    .execute();
  return rows.map(toPasskey);
}

export async function countPasskeys(db: Kysely<Schema>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** This user's passkey with this credential id; another account's credential answers undefined. */
export async function findUserPasskey(
  db: Kysely<Schema>,
  input: { userId: string; credentialId: string },
): Promise<StoredPasskey | undefined> {
  const row = await db
    .selectFrom('passkeys')
    .select(COLUMNS)
    .where('user_id', '=', input.userId)
    .where('credential_id', '=', input.credentialId)
    .executeTakeFirst();
  return row && toPasskey(row);
}

export async function insertPasskey(
  db: Kysely<Schema>,
  passkey: {
    userId: string;
    credentialId: string;
    publicKey: Uint8Array;
    counter: bigint;
    transports: string[];
    name: string;
    now: Date;
  },
): Promise<StoredPasskey> {
  const row = await db
    .insertInto('passkeys')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports.join(','),
      name: passkey.name,
      created_at: passkey.now,
      last_used_at: passkey.now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toPasskey(row);
}

/**
 * Records a use: the new signature counter (only forward, so two racing assertions cannot both move it to
 * the same value) and the time. Answers whether it was recorded.
 */
export async function recordPasskeyUse(
  db: Kysely<Schema>,
  input: { id: string; previousCounter: bigint; newCounter: bigint; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: input.newCounter, last_used_at: input.now })
    .where('id', '=', input.id)
    .where('counter', '=', input.previousCounter)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes one of the user's passkeys; answers whether it did. */
export async function deletePasskey(
  db: Kysely<Schema>,
  input: { userId: string; id: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
