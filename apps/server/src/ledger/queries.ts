import { paiseToRupeesText } from '@hasta/ledger/money';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { maskPayerAddress, nameInitial } from '../notices/notify-owner';

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
  /** The parties' names (a person's username; null for a store or the system). */
  from_name?: string | null;
  to_name?: string | null;
  /**
   * Which party paid by palm: 'from' for a palm payment, 'to' for a reversal of one (the money goes back to
   * its payer); null for any other transfer.
   */
  palm_payer_side?: 'from' | 'to' | null;
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
           du.id AS from_user_id, COALESCE(du.email, du.phone) AS from_email, du.username AS from_name,
           cu.id AS to_user_id, ca.merchant_id AS to_merchant_id, COALESCE(cu.email, cu.phone, cm.verified_contact_email) AS to_email,
           cu.username AS to_name,
           CASE WHEN t.kind = 'payment' THEN 'from'
                WHEN t.kind = 'reversal' AND EXISTS (
                  SELECT 1 FROM ledger_transfers o WHERE o.id = t.reverses_id AND o.kind = 'payment') THEN 'to'
           END AS palm_payer_side,
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
    WHERE t.phase IN ('single', 'pending') AND da.asset = 'inr' ${forAccount} ${forTransfer} ${older} ${unreversed}
    ORDER BY t.seq DESC
    LIMIT ${options.limit}`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    seq: BigInt(row.seq),
    amount_paise: BigInt(row.amount_paise),
    created_at: new Date(row.created_at),
  }));
}

/** Who looks at a transfer: through which account, and whether they may see palm payers as they are. */
export interface TransferViewer {
  accountId: string;
  /** Admins see every party in full. */
  revealPayers?: boolean;
}

/**
 * The parties of a transfer as `viewer` may see them. A palm payment's payer (and so the receiver of a
 * reversal of one) is shown to anyone but themselves and an admin masked: "a•••@d•••" or "••••3210", and
 * their name's initial. A palm is scanned by whoever holds the device, so its answer must not name the
 * person it belongs to. Send Money and QR payments are not masked: their payer chose the receiver and
 * confirmed with their own code, and the receiver sees who paid them, as with UPI.
 */
export function partiesSeenBy(
  view: TransferView,
  viewer: TransferViewer,
): { from: string | null; to: string | null; fromName: string | null } {
  const side = view.palm_payer_side ?? null;
  const payerAccount = side === 'from' ? view.debit_account_id : view.credit_account_id;
  if (side === null || viewer.revealPayers === true || viewer.accountId === payerAccount) {
    return { from: view.from_email, to: view.to_email, fromName: null };
  }
  const masked = (address: string | null) => (address === null ? null : maskPayerAddress(address));
  if (side === 'to') return { from: view.from_email, to: masked(view.to_email), fromName: null };
  const name = view.from_name ?? null;
  return {
    from: masked(view.from_email),
    to: view.to_email,
    fromName: name === null ? null : nameInitial(name),
  };
}

/** A transfer as the holder of `viewer`'s account sees it (a bare account id: a viewer who is no admin). */
export function toTransactionRecord(view: TransferView, viewer: string | TransferViewer): TransactionRecord {
  const seenBy = typeof viewer === 'string' ? { accountId: viewer } : viewer;
  const parties = partiesSeenBy(view, seenBy);
  return {
    id: view.id,
    amount: paiseToRupeesText(view.amount_paise),
    amount_paise: view.amount_paise.toString(),
    status: statusOf(view),
    created_at: view.created_at.toISOString(),
    direction: view.credit_account_id === seenBy.accountId ? 'received' : 'sent',
    // Money from the system: an admin's issuance, or redeemed reward points (the rewards expense account).
    from_user_email:
      parties.from ??
      (view.kind === 'issuance' ? 'Hasta' : view.kind === 'redemption' ? 'Hasta Rewards' : null),
    to_user_email: parties.to,
    ...(parties.fromName === null ? {} : { from_user_name: parties.fromName }),
    // The payment's entry in the verifiable log (its receipt: /api/receipts/{transaction id}); the chain
    // transaction once the log is anchored is on the receipt.
    blockchain_tx: view.log_entry ?? null,
    hand_hash: view.hand_hash ?? null,
  };
}
