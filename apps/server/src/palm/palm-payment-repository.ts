import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { findStoreOfOwner } from '../merchant/merchant-repository';
import { listTransfers, toTransactionRecord } from '../ledger/queries';

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
  createdAt: Date;
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
  }): Promise<void> {
    await this.db
      .insertInto('palm_payment_confirmations')
      .values({
        transfer_id: confirmation.transferId,
        payer_user_id: confirmation.payerUserId,
        receiver_user_id: confirmation.receiverUserId,
        channel: confirmation.channel,
        code_hash: confirmation.codeHash,
      })
      .execute();
  }

  /** The confirmation of payment `transferId`; with `receiverUserId`, only if it is that receiver's. */
  async findConfirmation(transferId: string, receiverUserId?: string): Promise<PalmConfirmation | undefined> {
    let query = this.db
      .selectFrom('palm_payment_confirmations')
      .selectAll()
      .where('transfer_id', '=', transferId);
    if (receiverUserId !== undefined) query = query.where('receiver_user_id', '=', receiverUserId);
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    return {
      transferId: row.transfer_id,
      payerUserId: row.payer_user_id,
      receiverUserId: row.receiver_user_id,
      channel: row.channel,
      codeHash: row.code_hash,
      outcome: row.outcome,
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

  /** Where a payer's code goes: their phone, else their email. */
  async payerContact(userId: string): Promise<{ channel: 'sms' | 'email'; address: string }> {
    const user = await this.db
      .selectFrom('users')
      .select(['email', 'phone'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (user.phone !== null) return { channel: 'sms', address: user.phone };
    if (user.email !== null) return { channel: 'email', address: user.email };
    throw new Error(`user ${userId} has neither a phone nor an email`);
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
