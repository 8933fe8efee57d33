import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { maskAddress } from '../notices/notify-owner';

/** A palm payment as its payer's notice (and a dispute) names it. */
export interface PalmPaymentFacts {
  transferId: string;
  payerUserId: string;
  amountPaise: bigint;
  createdAt: Date;
  /** The payee's display name: a store's name, else the person's username, else their masked contact. */
  payee: string;
}

/** A payee as a payer reads it: a store's name, else the person's username, else their masked contact. */
export function payeeName(payee: {
  store_name: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
}): string {
  if (payee.store_name !== null) return payee.store_name;
  const username = payee.username?.trim();
  if (username) return username;
  const contact = payee.email ?? payee.phone;
  return contact === null ? 'a Hasta account' : maskAddress(contact);
}

/** A "Not me?" link's token as stored (its hash only). */
export interface NotMeToken {
  transferId: string;
  payerUserId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/**
 * The payer's notices of palm payments and their one-time "Not me?" tokens (only the hashes). Built over the
 * database, or over a transaction (`within`) for the writes that go with a payment or a dispute.
 */
export class PalmPaymentNoticeRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  within(trx: Transaction<Schema>): PalmPaymentNoticeRepository {
    return new PalmPaymentNoticeRepository(trx);
  }

  /** The notice of payment `transferId`, not yet sent (in the payment's transaction). */
  async add(notice: {
    transferId: string;
    payerUserId: string;
    tokenHash: string;
    linkOrigin: string;
    expiresAt: Date;
    now: Date;
  }): Promise<void> {
    await this.db
      .insertInto('palm_payment_notices')
      .values({
        transfer_id: notice.transferId,
        payer_user_id: notice.payerUserId,
        token_hash: notice.tokenHash,
        link_origin: notice.linkOrigin,
        expires_at: notice.expiresAt,
        last_attempt_at: notice.now,
      })
      .execute();
  }

  async markSent(transferId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('palm_payment_notices')
      .set({ sent_at: now })
      .where('transfer_id', '=', transferId)
      .where('sent_at', 'is', null)
      .execute();
  }

  /** Unsent notices whose last attempt was before `before` and that were tried fewer than `maxAttempts` times. */
  async unsent(before: Date, maxAttempts: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('palm_payment_notices')
      .select('transfer_id')
      .where('sent_at', 'is', null)
      .where('last_attempt_at', '<', before)
      .where('send_attempts', '<', maxAttempts)
      .orderBy('last_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.transfer_id);
  }

  /**
   * Takes an unsent notice for another attempt with a fresh token (nobody holds the old one: it was never
   * sent). False when someone else took it since `before`, or it was sent meanwhile.
   */
  async retake(transferId: string, tokenHash: string, before: Date, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('palm_payment_notices')
      .set((eb) => ({
        token_hash: tokenHash,
        send_attempts: eb('send_attempts', '+', 1),
        last_attempt_at: now,
      }))
      .where('transfer_id', '=', transferId)
      .where('sent_at', 'is', null)
      .where('last_attempt_at', '<', before)
      .returning('transfer_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async linkOrigin(transferId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('palm_payment_notices')
      .select('link_origin')
      .where('transfer_id', '=', transferId)
      .executeTakeFirst();
    return row?.link_origin;
  }

  async findToken(tokenHash: string): Promise<NotMeToken | undefined> {
    const row = await this.db
      .selectFrom('palm_payment_notices')
      .select(['transfer_id', 'payer_user_id', 'expires_at', 'used_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      transferId: row.transfer_id,
      payerUserId: row.payer_user_id,
      expiresAt: new Date(row.expires_at),
      usedAt: row.used_at === null ? null : new Date(row.used_at),
    };
  }

  /** Spends a token still valid at `now` (once: a second spend finds nothing); its payment, or undefined. */
  async spendToken(
    tokenHash: string,
    now: Date,
  ): Promise<{ transferId: string; payerUserId: string } | undefined> {
    const row = await this.db
      .updateTable('palm_payment_notices')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['transfer_id', 'payer_user_id'])
      .executeTakeFirst();
    return row ? { transferId: row.transfer_id, payerUserId: row.payer_user_id } : undefined;
  }

  /** The palm payment `transferId` as its payer's notice names it (payer from palm_payments). */
  async facts(transferId: string): Promise<PalmPaymentFacts | undefined> {
    const row = await this.db
      .selectFrom('palm_payments as p')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .innerJoin('ledger_accounts as a', 'a.id', 't.credit_account_id')
      .leftJoin('merchants as m', 'm.id', 'a.merchant_id')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .select([
        'p.transfer_id',
        'p.payer_user_id',
        't.amount_paise',
        't.created_at',
        'm.store_name',
        'u.username',
        'u.email',
        'u.phone',
      ])
      .where('p.transfer_id', '=', transferId)
      .executeTakeFirst();
    if (!row) return undefined;
    const payee = payeeName(row);
    return {
      transferId: row.transfer_id,
      payerUserId: row.payer_user_id,
      amountPaise: BigInt(row.amount_paise),
      createdAt: new Date(row.created_at),
      payee,
    };
  }
}
