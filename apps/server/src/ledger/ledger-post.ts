import type { LedgerErrorCode, LedgerLimits, TransferKind } from '@hasta/ledger/rules';
import { sql, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import type { TransferRecord } from './ledger';

/**
 * The calls into the ledger's posting functions (routines/ledger_post.sql), where its rules are written once.
 * Every write to the ledger is these two steps in one READ COMMITTED transaction: claim the ids, then post the
 * claimed ones (with whatever the caller does between them in the same transaction).
 */

/** What a transfer id's claim answers: claimed now, or what the id answered before. */
export type ClaimOutcome = 'claimed' | TransferRecord | LedgerErrorCode;

/** One transfer to post, under an id this transaction claimed. */
export type Posting =
  | {
      id: string;
      phase: 'single' | 'pending';
      debitAccountId: string;
      creditAccountId: string;
      amountPaise: bigint;
      kind: TransferKind;
      /** A pending transfer's timeout, from the clock's now. */
      timeoutMs?: number | undefined;
      reversesId?: string | undefined;
      initiatedBy?: string | undefined;
    }
  | {
      id: string;
      phase: 'post' | 'void';
      pendingId: string;
      initiatedBy?: string | undefined;
    };

/** A claim that found its id freed by a concurrent give-back: the transaction is retried. */
class ClaimRaced extends Error {
  readonly code = '40001';
  constructor(id: string) {
    super(`the claim of ${id} raced with its give-back`);
  }
}

const LEDGER_ERROR_CODES = new Set<string>([
  'amount_invalid',
  'same_account',
  'account_not_found',
  'insufficient_funds',
  'balance_limit_exceeded',
  'asset_mismatch',
  'id_reused',
  'pending_not_found',
  'pending_resolved',
  'pending_expired',
] satisfies LedgerErrorCode[]);

function ledgerErrorCode(outcome: string, id: string): LedgerErrorCode {
  if (!LEDGER_ERROR_CODES.has(outcome)) throw new Error(`transfer ${id}: unknown outcome ${outcome}`);
  return outcome as LedgerErrorCode;
}

interface ClaimRow {
  n: number;
  outcome: string;
  seq: bigint | null;
  debit_account_id: string | null;
  credit_account_id: string | null;
  amount_paise: bigint | null;
  kind: TransferKind | null;
  phase: TransferRecord['phase'] | null;
  pending_id: string | null;
  timeout_at: Date | null;
  reverses_id: string | null;
  initiated_by: string | null;
  created_at: Date | null;
}

/** Claims the ids (`ledger_claim`), in order: each answers 'claimed' or what it answered before. */
export async function claimTransfers(
  trx: Transaction<Schema>,
  requests: readonly { id: string; requestHash: string }[],
): Promise<ClaimOutcome[]> {
  if (requests.length === 0) return [];
  const result = await sql<ClaimRow>`
    SELECT * FROM ledger_claim(${requests.map((r) => r.id)}::uuid[], ${requests.map((r) => r.requestHash)}::text[])`.execute(
    trx,
  );
  if (result.rows.length !== requests.length)
    throw new Error(`${requests.length} claims had ${result.rows.length} answers`);
  return result.rows.map((row, i): ClaimOutcome => {
    const id = requests[i]!.id;
    if (row.n !== i + 1) throw new Error(`claim ${row.n} out of place`);
    if (row.outcome === 'claimed') return 'claimed';
    if (row.outcome === 'given_back') throw new ClaimRaced(id);
    if (row.outcome !== 'replay') return ledgerErrorCode(row.outcome, id);
    if (row.seq === null || row.created_at === null) throw new Error(`transfer ${id} replayed unwritten`);
    return {
      id,
      seq: row.seq,
      debit_account_id: row.debit_account_id!,
      credit_account_id: row.credit_account_id!,
      amount_paise: row.amount_paise!,
      kind: row.kind!,
      phase: row.phase!,
      pending_id: row.pending_id,
      timeout_at: row.timeout_at,
      reverses_id: row.reverses_id,
      initiated_by: row.initiated_by,
      created_at: row.created_at,
    };
  });
}

/** Frees claimed ids that will not be posted (`ledger_give_back`): nothing is stored against them. */
export async function giveBack(trx: Transaction<Schema>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`SELECT ledger_give_back(${ids}::uuid[])`.execute(trx);
}

/** A posting's outcome row: the claim's columns the posting function answers. */
type PostRow = Pick<
  ClaimRow,
  | 'n'
  | 'outcome'
  | 'seq'
  | 'debit_account_id'
  | 'credit_account_id'
  | 'amount_paise'
  | 'kind'
  | 'timeout_at'
  | 'created_at'
>;

/**
 * Posts transfers whose ids this transaction claimed (`ledger_post_batch`), in order: each its written
 * transfer or the rule that refused it (stored against its id). `now` is the ledger's clock.
 */
export async function postClaimed(
  trx: Transaction<Schema>,
  postings: readonly Posting[],
  limits: LedgerLimits,
  now: Date,
): Promise<(TransferRecord | LedgerErrorCode)[]> {
  if (postings.length === 0) return [];
  const single = (p: Posting) => (p.phase === 'single' || p.phase === 'pending' ? p : undefined);
  const resolution = (p: Posting) => (p.phase === 'post' || p.phase === 'void' ? p : undefined);
  const result = await sql<PostRow>`
    SELECT * FROM ledger_post_batch(
      ${postings.map((p) => p.id)}::uuid[], ${postings.map((p) => p.phase)}::text[],
      ${postings.map((p) => single(p)?.debitAccountId ?? null)}::uuid[],
      ${postings.map((p) => single(p)?.creditAccountId ?? null)}::uuid[],
      ${postings.map((p) => single(p)?.amountPaise.toString() ?? null)}::int8[],
      ${postings.map((p) => single(p)?.kind ?? null)}::text[],
      ${postings.map((p) => single(p)?.timeoutMs?.toString() ?? null)}::int8[],
      ${postings.map((p) => resolution(p)?.pendingId ?? null)}::uuid[],
      ${postings.map((p) => single(p)?.reversesId ?? null)}::uuid[],
      ${postings.map((p) => p.initiatedBy ?? null)}::uuid[],
      ${limits.minAmountPaise.toString()}::int8, ${limits.maxBalancePaise.toString()}::int8,
      ${now.toISOString()}::timestamptz)`.execute(trx);
  if (result.rows.length !== postings.length)
    throw new Error(`a batch of ${postings.length} transfers had ${result.rows.length} outcomes`);
  return result.rows.map((row, i) => {
    const posting = postings[i]!;
    if (row.n !== i + 1) throw new Error(`outcome ${row.n} out of place`);
    if (row.outcome !== 'ok') return ledgerErrorCode(row.outcome, posting.id);
    if (row.seq === null || row.created_at === null || row.amount_paise === null)
      throw new Error(`transfer ${posting.id} was not written`);
    const resolved = resolution(posting);
    return {
      id: posting.id,
      seq: row.seq,
      debit_account_id: row.debit_account_id!,
      credit_account_id: row.credit_account_id!,
      amount_paise: row.amount_paise,
      kind: row.kind!,
      phase: posting.phase,
      pending_id: resolved?.pendingId ?? null,
      timeout_at: row.timeout_at,
      reverses_id: single(posting)?.reversesId ?? null,
      initiated_by: posting.initiatedBy ?? null,
      created_at: row.created_at,
    };
  });
}
