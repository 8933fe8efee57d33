import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A transfer an admin may reverse: a completed single-phase transfer that is not itself a reversal. */
export interface ReversibleTransfer {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
}

/** The reads behind an admin's reversal of a transfer. */
export class TransferReversalRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  /** The transfer with this id when it may be reversed (single phase, not a reversal); else undefined. */
  async findReversible(transferId: string): Promise<ReversibleTransfer | undefined> {
    const row = await this.db
      .selectFrom('ledger_transfers')
      .select(['id', 'debit_account_id', 'credit_account_id', 'amount_paise'])
      .where('id', '=', transferId)
      .where('phase', '=', 'single')
      .where('kind', '<>', 'reversal')
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          debitAccountId: row.debit_account_id,
          creditAccountId: row.credit_account_id,
          amountPaise: BigInt(row.amount_paise),
        }
      : undefined;
  }

  /** Whether a reversal of this transfer was written. */
  async isReversed(transferId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('reverses_id', '=', transferId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
