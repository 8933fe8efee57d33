import { paiseToRupeesText } from '@hasta/ledger/money';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';

export interface TransferView {
  id: string;
  /** The ledger's order of writing: the newest has the highest. */
  seq: bigint;
  amount_paise: bigint;
  kind: string;
  phase: 'single' | 'pending';
  created_at: Date;
  debit_account_id: string;
  credit_account_id: string;
  from_user_id: string | null;
  from_email: string | null;
  to_user_id: string | null;
  to_merchant_id: string | null;
  to_email: string | null;
  resolution: 'post' | 'void' | null;
  reversed: boolean;
  /** The transfer's entry in the verifiable log (hex leaf hash); null until it is sequenced. */
  log_entry?: string | null;
  /**
   * A palm payment in its payer's list: the palm hash of the hand that paid (null elsewhere, and once that
   * palm is erased).
   */
  hand_hash?: string | null;
}

export type TransferStatus = TransactionRecord['status'];

export function statusOf(view: Pick<TransferView, 'phase' | 'resolution' | 'reversed'>): TransferStatus {
  if (view.reversed) return 'reversed';
  if (view.phase === 'single' || view.resolution === 'post') return 'completed';
  return view.resolution === 'void' ? 'voided' : 'pending';
}

/**
 * Transfers as people see them: one row per single or pending transfer (posting and voiding show as its
 * status), with both parties' emails (a merchant's contact email), newest first.
 */
export async function listTransfers(
  db: Kysely<Schema>,
  options: {
    accountId?: string;
    transferId?: string;
    /** Only transfers written before this one (its `seq`): the next page of a list. */
    beforeSeq?: bigint | undefined;
    limit: number;
    includeReversed: boolean;
  },
): Promise<TransferView[]> {
  const forAccount = options.accountId
    ? sql`AND (t.debit_account_id = ${options.accountId} OR t.credit_account_id = ${options.accountId})`
    : sql``;
  const forTransfer = options.transferId ? sql`AND t.id = ${options.transferId}` : sql``;
  const older =
    options.beforeSeq === undefined ? sql`` : sql`AND t.seq < ${options.beforeSeq.toString()}::int8`;
  // Before the LIMIT, so a page of the default list is full even when some transfers were reversed.
  // Which palm paid a palm payment: only in the payer's own list (never a receiver's, a store's or an admin's).
  const handHash = options.accountId
    ? sql`CASE WHEN t.debit_account_id = ${options.accountId} THEN
            (SELECT p.palm_hash FROM palm_events pe JOIN palm_templates p ON p.id = pe.template_id
             WHERE pe.transfer_id = t.id LIMIT 1) END`
    : sql`NULL`;
  const unreversed = options.includeReversed
    ? sql``
    : sql`AND NOT EXISTS (SELECT 1 FROM ledger_transfers x WHERE x.reverses_id = t.id)`;
  const result = await sql<TransferView>`
    SELECT t.id, t.seq, t.amount_paise, t.kind, t.phase, t.created_at, t.debit_account_id, t.credit_account_id,
           du.id AS from_user_id, COALESCE(du.email, du.phone) AS from_email,
           cu.id AS to_user_id, ca.merchant_id AS to_merchant_id, COALESCE(cu.email, cu.phone, cm.contact_email) AS to_email,
           (SELECT r.phase FROM ledger_transfers r WHERE r.pending_id = t.id) AS resolution,
           EXISTS (SELECT 1 FROM ledger_transfers v WHERE v.reverses_id = t.id) AS reversed,
           (SELECT e.leaf_hash FROM tlog_entries e WHERE e.ref_id = t.id ORDER BY e.idx LIMIT 1) AS log_entry,
           ${handHash} AS hand_hash
    FROM ledger_transfers t
    JOIN ledger_accounts da ON da.id = t.debit_account_id
    LEFT JOIN users du ON du.id = da.user_id
    JOIN ledger_accounts ca ON ca.id = t.credit_account_id
    LEFT JOIN users cu ON cu.id = ca.user_id
    LEFT JOIN merchants cm ON cm.id = ca.merchant_id
    WHERE t.phase IN ('single', 'pending') ${forAccount} ${forTransfer} ${older} ${unreversed}
    ORDER BY t.seq DESC
    LIMIT ${options.limit}`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    seq: BigInt(row.seq),
    amount_paise: BigInt(row.amount_paise),
    created_at: new Date(row.created_at),
  }));
}

export function toTransactionRecord(view: TransferView, accountId: string): TransactionRecord {
  return {
    id: view.id,
    amount: paiseToRupeesText(view.amount_paise),
    amount_paise: view.amount_paise.toString(),
    status: statusOf(view),
    created_at: view.created_at.toISOString(),
    direction: view.credit_account_id === accountId ? 'received' : 'sent',
    from_user_email: view.from_email ?? (view.kind === 'issuance' ? 'Hasta' : null),
    to_user_email: view.to_email,
    // The payment's entry in the verifiable log (its receipt: /api/receipts/{transaction id}); the chain
    // transaction once the log is anchored is on the receipt.
    blockchain_tx: view.log_entry ?? null,
    hand_hash: view.hand_hash ?? null,
  };
}
