import { createHash } from 'node:crypto';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { PalmCodeReason, Schema } from '../db/schema';
import { findStoreOfOwner } from '../merchant/merchant-repository';
import { listTransfers, toTransactionRecord } from '../ledger/queries';
import { ownContactOf, type OwnContact } from '../notices/notify-owner';

/** How a palm payment waiting for the payer's code ended; null while it waits. */
export type PalmConfirmationOutcome = 'paid' | 'cancelled' | 'failed' | 'expired';

/** A palm payment above the palm limit: the code sent to its payer and what became of it. */
export interface PalmConfirmation {
  /** The pending transfer's id, which is also the payment's. */
  transferId: string;
  payerUserId: string;
  receiverUserId: string;
  channel: 'sms' | 'email';
  codeHash: string;
  outcome: PalmConfirmationOutcome | null;
  /** Why it waits for the code. */
  reason: PalmCodeReason;
  createdAt: Date;
}

/** What a payer's palm alone paid in a window: how many payments, and how much. */
export interface PalmAloneTotals {
  count: number;
  amountPaise: bigint;
}

/** The advisory lock key of one payer's palm payments: 64 bits of a hash of their id, as a signed integer. */
export function payerLockKey(payerUserId: string): string {
  return createHash('sha256').update(`palm-pay:${payerUserId}`).digest().readBigInt64BE(0).toString();
}

/**
 * The records of palm payments beside the ledger's transfers: unrecognised scans per receiver (the failure
 * limit) and the codes of payments waiting for their payer (one row per pending transfer). Built over the
 * database, or over a transaction (`within`) for the writes that go with a transfer.
 */
export class PalmPaymentRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  /** The same records inside `trx` (the ledger transfer's or resolution's transaction). */
  within(trx: Transaction<Schema>): PalmPaymentRepository {
    return new PalmPaymentRepository(trx);
  }

  /** When this receiver's scans recognised nobody, since `since`. */
  async scanFailuresSince(receiverUserId: string, since: Date): Promise<Date[]> {
    const rows = await this.db
      .selectFrom('palm_scan_failures')
      .select('created_at')
      .where('receiver_user_id', '=', receiverUserId)
      .where('created_at', '>', since)
      .execute();
    return rows.map((row) => new Date(row.created_at));
  }

  async recordScanFailure(receiverUserId: string): Promise<void> {
    await this.db.insertInto('palm_scan_failures').values({ receiver_user_id: receiverUserId }).execute();
  }

  /** How many palm payment codes went to this payer since `since`. */
  async codesSentSince(payerUserId: string, since: Date): Promise<number> {
    const { count } = await this.db
      .selectFrom('palm_payment_confirmations')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('payer_user_id', '=', payerUserId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async addConfirmation(confirmation: {
    transferId: string;
    payerUserId: string;
    receiverUserId: string;
    channel: 'sms' | 'email';
    codeHash: string;
    reason: PalmCodeReason;
  }): Promise<void> {
    await this.db
      .insertInto('palm_payment_confirmations')
      .values({
        transfer_id: confirmation.transferId,
        payer_user_id: confirmation.payerUserId,
        receiver_user_id: confirmation.receiverUserId,
        channel: confirmation.channel,
        code_hash: confirmation.codeHash,
        reason: confirmation.reason,
      })
      .execute();
  }

  /** The confirmation of payment `transferId`; with `receiverUserId`, only if it is that receiver's. */
  /** A payment's wait for the payer's code; of this receiver, and taken on this device, when they are given. */
  async findConfirmation(
    transferId: string,
    receiverUserId?: string,
    deviceId?: string,
  ): Promise<PalmConfirmation | undefined> {
    let query = this.db
      .selectFrom('palm_payment_confirmations')
      .selectAll('palm_payment_confirmations')
      .where('palm_payment_confirmations.transfer_id', '=', transferId);
    if (receiverUserId !== undefined)
      query = query.where('palm_payment_confirmations.receiver_user_id', '=', receiverUserId);
    if (deviceId !== undefined)
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('palm_payments')
            .select('palm_payments.transfer_id')
            .whereRef('palm_payments.transfer_id', '=', 'palm_payment_confirmations.transfer_id')
            .where('palm_payments.device_id', '=', deviceId),
        ),
      );
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    return {
      transferId: row.transfer_id,
      payerUserId: row.payer_user_id,
      receiverUserId: row.receiver_user_id,
      channel: row.channel,
      codeHash: row.code_hash,
      outcome: row.outcome,
      reason: row.reason,
      createdAt: new Date(row.created_at),
    };
  }

  /** Counts a wrong code against a payment still waiting; the count so far, or undefined once it ended. */
  async countWrongCode(transferId: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('palm_payment_confirmations')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('transfer_id', '=', transferId)
      .where('outcome', 'is', null)
      .returning('failed_attempts')
      .executeTakeFirst();
    return row?.failed_attempts;
  }

  /** Records how a waiting payment ended (once: an ended one keeps its outcome). */
  async markOutcome(transferId: string, outcome: PalmConfirmationOutcome): Promise<void> {
    await this.db
      .updateTable('palm_payment_confirmations')
      .set({ outcome, resolved_at: new Date() })
      .where('transfer_id', '=', transferId)
      .where('outcome', 'is', null)
      .execute();
  }

  /**
   * Takes the payer's palm payment lock until the end of this transaction (call it through `within`): one
   * palm payment (or freeze) of a payer at a time, so the limits read what the one before wrote.
   */
  async lockPayer(payerUserId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${payerLockKey(payerUserId)}::bigint)`.execute(this.db);
  }

  /** Whether palm pay is paused for this person ("Not me"); read in the payment's transaction, no cache. */
  async isFrozen(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('palm_pay_freezes')
      .select('user_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** When the template `templateId` was enrolled; undefined when it no longer exists. */
  async templateEnrolledAt(templateId: string): Promise<Date | undefined> {
    const row = await this.db
      .selectFrom('palm_templates')
      .select('created_at')
      .where('id', '=', templateId)
      .executeTakeFirst();
    return row ? new Date(row.created_at) : undefined;
  }

  /** The palm-alone payments of this payer since `since`. */
  async palmAloneSince(payerUserId: string, since: Date): Promise<PalmAloneTotals> {
    const row = await this.db
      .selectFrom('palm_payments')
      .select((eb) => [
        eb.fn.countAll<string>().as('count'),
        sql<string>`COALESCE(SUM(${eb.ref('amount_paise')}), 0)::text`.as('amount'),
      ])
      .where('payer_user_id', '=', payerUserId)
      .where('palm_alone', '=', true)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), amountPaise: BigInt(row.amount) };
  }

  /** Records a palm payment (in its transaction): who paid whom, whether the palm alone paid, where. */
  async addPalmPayment(payment: {
    transferId: string;
    payerUserId: string;
    receiverUserId: string;
    amountPaise: bigint;
    palmAlone: boolean;
    device: string | null;
    deviceId: string | null;
    createdAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('palm_payments')
      .values({
        transfer_id: payment.transferId,
        payer_user_id: payment.payerUserId,
        receiver_user_id: payment.receiverUserId,
        amount_paise: payment.amountPaise,
        palm_alone: payment.palmAlone,
        device: payment.device,
        device_id: payment.deviceId,
        created_at: payment.createdAt,
      })
      .execute();
  }

  /** Where a payer's code goes: their own phone, else their email (as every notice of theirs). */
  payerContact(userId: string): Promise<OwnContact> {
    return ownContactOf(this.db, userId);
  }

  /** The store a merchant owns (palm payments to a merchant go to its store), if any. */
  async storeOwnedBy(ownerUserId: string): Promise<string | undefined> {
    return (await findStoreOfOwner(this.db, ownerUserId))?.id;
  }

  /** A palm payment as its receiver sees it (any status; its payer masked, see partiesSeenBy). */
  async transaction(transferId: string): Promise<TransactionRecord> {
    const [view] = await listTransfers(this.db, { transferId, limit: 1, includeReversed: true });
    if (!view) throw new Error(`palm payment ${transferId} is missing after it was written`);
    return toTransactionRecord(view, view.credit_account_id);
  }
}
