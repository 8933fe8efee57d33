import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

/** A store's printed payment code. */
export interface StoreQrCode {
  id: string;
  merchantId: string;
  /** The printed code's `qr` id: random, unguessable, unique. */
  token: string;
  amountPaise: bigint | null;
  label: string | null;
  scans: number;
  createdAt: Date;
}

const COLUMNS = ['id', 'merchant_id', 'token', 'amount_paise', 'label', 'scans', 'created_at'] as const;

function toQrCode(row: {
  id: string;
  merchant_id: string;
  token: string;
  amount_paise: bigint | null;
  label: string | null;
  scans: number;
  created_at: Date;
}): StoreQrCode {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    token: row.token,
    amountPaise: row.amount_paise,
    label: row.label,
    scans: row.scans,
    createdAt: row.created_at,
  };
}

/** The store's codes, newest first, at most `limit`. */
export async function listQrCodes(
  db: Kysely<Schema>,
  merchantId: string,
  limit: number,
): Promise<StoreQrCode[]> {
  const rows = await db
    .selectFrom('merchant_qr_codes')
    .select(COLUMNS)
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toQrCode);
}

export async function countQrCodes(trx: Transaction<Schema>, merchantId: string): Promise<number> {
  const { count } = await trx
    .selectFrom('merchant_qr_codes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertQrCode(
  trx: Transaction<Schema>,
  code: { merchantId: string; token: string; amountPaise: bigint | null; label: string | null },
): Promise<StoreQrCode> {
  const row = await trx
    .insertInto('merchant_qr_codes')
    .values({
      merchant_id: code.merchantId,
      token: code.token,
      amount_paise: code.amountPaise,
      label: code.label,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toQrCode(row);
}

/** How many codes the store has and how often payers scanned them in all. */
export async function qrCodeTotals(
  db: Kysely<Schema>,
  merchantId: string,
): Promise<{ codes: number; scans: number }> {
  const row = await db
    .selectFrom('merchant_qr_codes')
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      eb.fn.coalesce(eb.fn.sum<string>('scans'), sql<string>`0`).as('scans'),
    ])
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return { codes: Number(row.count), scans: Number(row.scans) };
}
