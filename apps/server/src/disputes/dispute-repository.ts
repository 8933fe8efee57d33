import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { payeeName } from '../palm/palm-payment-notice-repository';

export type DisputeStatus = 'open' | 'refunded' | 'rejected';

/** A dispute with the payment it is about, as the payer and the admins see it. */
export interface DisputeView {
  id: string;
  status: DisputeStatus;
  openedVia: 'link' | 'history';
  transferId: string;
  amountPaise: bigint;
  paidAt: Date;
  payerUserId: string;
  payerEmail: string | null;
  payerPhone: string | null;
  /** The payee's display name: a store's name, else the person's username, else their masked contact. */
  payee: string;
  device: string | null;
  similarity: number | null;
  reason: string | null;
  refundedFrom: 'payee' | 'losses' | null;
  refundTransferId: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
}

/** A palm payment a payer may report: who paid, from and to which accounts, what is known of its scan. */
export interface ReportablePayment {
  transferId: string;
  payerUserId: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
  /** Whether money moved: palm alone, or posted with the payer's code (not one still waiting or voided). */
  movedMoney: boolean;
  device: string | null;
  similarity: number | null;
}

/** Most disputes one list answers. */
export const DISPUTE_LIST_LIMIT = 500;

/**
 * Disputes of palm payments ("Not me") and palm pay's freeze. Built over the database, or over a transaction
 * (`within`) for the writes that must happen together (the freeze, the dispute, the spent token).
 */
export class DisputeRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  within(trx: Transaction<Schema>): DisputeRepository {
    return new DisputeRepository(trx);
  }

  /** The palm payment `transferId` (any payer), or undefined when it is no palm payment. */
  async reportablePayment(transferId: string): Promise<ReportablePayment | undefined> {
    const row = await this.db
      .selectFrom('palm_payments as p')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .select((eb) => [
        'p.transfer_id',
        'p.payer_user_id',
        'p.device',
        't.debit_account_id',
        't.credit_account_id',
        't.amount_paise',
        't.phase',
        eb
          .exists(
            eb
              .selectFrom('ledger_transfers as r')
              .select('r.id')
              .whereRef('r.pending_id', '=', 't.id')
              .where('r.phase', '=', 'post'),
          )
          .as('posted'),
        eb
          .selectFrom('palm_events as e')
          .select('e.similarity')
          .whereRef('e.transfer_id', '=', 'p.transfer_id')
          .where('e.type', '=', 'palm.scan')
          .limit(1)
          .as('similarity'),
      ])
      .where('p.transfer_id', '=', transferId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      transferId: row.transfer_id,
      payerUserId: row.payer_user_id,
      debitAccountId: row.debit_account_id,
      creditAccountId: row.credit_account_id,
      amountPaise: BigInt(row.amount_paise),
      movedMoney: row.phase === 'single' || Boolean(row.posted),
      device: row.device,
      similarity: row.similarity ?? null,
    };
  }

  /**
   * Pauses palm pay for `userId` (a palm_pay_freezes row and a 'frozen' event); true when it was not paused
   * already. Call it under the payer's palm payment lock.
   */
  async freeze(userId: string, now: Date): Promise<boolean> {
    const inserted = await this.db
      .insertInto('palm_pay_freezes')
      .values({ user_id: userId, reason: 'not_me', frozen_at: now })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) return false;
    await this.db
      .insertInto('palm_pay_freeze_events')
      .values({ id: crypto.randomUUID(), user_id: userId, type: 'frozen', created_at: now })
      .execute();
    return true;
  }

  /** Opens a dispute; undefined when that payment already has one. */
  async open(dispute: {
    transferId: string;
    payerUserId: string;
    openedVia: 'link' | 'history';
    device: string | null;
    similarity: number | null;
    now: Date;
  }): Promise<string | undefined> {
    const row = await this.db
      .insertInto('palm_disputes')
      .values({
        id: crypto.randomUUID(),
        transfer_id: dispute.transferId,
        payer_user_id: dispute.payerUserId,
        opened_via: dispute.openedVia,
        device: dispute.device,
        similarity: dispute.similarity,
        created_at: dispute.now,
      })
      .onConflict((conflict) => conflict.column('transfer_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /** Marks an open dispute refunded; false when it was no longer open. */
  async markRefunded(
    id: string,
    refund: { from: 'payee' | 'losses'; transferId: string; adminId: string; now: Date },
  ): Promise<boolean> {
    const row = await this.db
      .updateTable('palm_disputes')
      .set({
        status: 'refunded',
        refunded_from: refund.from,
        refund_transfer_id: refund.transferId,
        resolved_by: refund.adminId,
        resolved_at: refund.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks an open dispute rejected with the admin's reason; false when it was no longer open. */
  async markRejected(
    id: string,
    rejection: { reason: string; adminId: string; now: Date },
  ): Promise<boolean> {
    const row = await this.db
      .updateTable('palm_disputes')
      .set({
        status: 'rejected',
        reason: rejection.reason,
        resolved_by: rejection.adminId,
        resolved_at: rejection.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Palm payments of this payer still waiting for their code. */
  async waitingPaymentsOf(payerUserId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('palm_payment_confirmations')
      .select('transfer_id')
      .where('payer_user_id', '=', payerUserId)
      .where('outcome', 'is', null)
      .execute();
    return rows.map((row) => row.transfer_id);
  }

  async find(id: string): Promise<DisputeView | undefined> {
    const [view] = await this.#views({ id });
    return view;
  }

  /** A payer's disputes, newest first. */
  listOfPayer(payerUserId: string): Promise<DisputeView[]> {
    return this.#views({ payerUserId });
  }

  /** Every dispute, open ones first, then newest first. */
  listAll(): Promise<DisputeView[]> {
    return this.#views({});
  }

  async #views(filter: { id?: string; payerUserId?: string }): Promise<DisputeView[]> {
    let query = this.db
      .selectFrom('palm_disputes as d')
      .innerJoin('ledger_transfers as t', 't.id', 'd.transfer_id')
      .innerJoin('users as payer', 'payer.id', 'd.payer_user_id')
      .innerJoin('ledger_accounts as a', 'a.id', 't.credit_account_id')
      .leftJoin('merchants as m', 'm.id', 'a.merchant_id')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .select([
        'd.id',
        'd.status',
        'd.opened_via',
        'd.transfer_id',
        'd.payer_user_id',
        'd.device',
        'd.similarity',
        'd.reason',
        'd.refunded_from',
        'd.refund_transfer_id',
        'd.created_at',
        'd.resolved_at',
        't.amount_paise',
        't.created_at as paid_at',
        'payer.email as payer_email',
        'payer.phone as payer_phone',
        'm.store_name',
        'u.username',
        'u.email',
        'u.phone',
      ]);
    if (filter.id !== undefined) query = query.where('d.id', '=', filter.id);
    if (filter.payerUserId !== undefined) query = query.where('d.payer_user_id', '=', filter.payerUserId);
    if (filter.payerUserId === undefined && filter.id === undefined)
      query = query.orderBy((eb) => eb.case().when('d.status', '=', 'open').then(0).else(1).end());
    const rows = await query.orderBy('d.created_at', 'desc').limit(DISPUTE_LIST_LIMIT).execute();
    return rows.map((row) => {
      return {
        id: row.id,
        status: row.status,
        openedVia: row.opened_via,
        transferId: row.transfer_id,
        amountPaise: BigInt(row.amount_paise),
        paidAt: new Date(row.paid_at),
        payerUserId: row.payer_user_id,
        payerEmail: row.payer_email,
        payerPhone: row.payer_phone,
        payee: payeeName(row),
        device: row.device,
        similarity: row.similarity,
        reason: row.reason,
        refundedFrom: row.refunded_from,
        refundTransferId: row.refund_transfer_id,
        createdAt: new Date(row.created_at),
        resolvedAt: row.resolved_at === null ? null : new Date(row.resolved_at),
      };
    });
  }
}
