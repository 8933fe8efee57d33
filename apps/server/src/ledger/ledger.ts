import { createHash } from 'node:crypto';
import {
  DEFAULT_LIMITS,
  LedgerError,
  requestFingerprint,
  type AccountState,
  type LedgerErrorCode,
  type LedgerLimits,
  type TransferKind,
} from '@hasta/ledger/rules';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { sqlState } from '../db/errors';
import type { LedgerAccountsTable, LedgerTransfersTable, Schema } from '../db/schema';
import { claimTransfers, postClaimed, type Posting } from './ledger-post';

export const SYSTEM_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
/**
 * The losses account (migration 023): a system account, like the issuance account, that may go below zero.
 * Refunds of disputed palm payments the payee can no longer cover come from it, so the books still balance.
 */
export const LOSSES_ACCOUNT_ID = '00000000-0000-4000-8000-000000000002';
/**
 * The rewards expense account (migration 031): a rupee system account that pays redeemed points into wallets,
 * so the rupee books still balance; its balance below zero is what the rewards programme has cost.
 */
export const REWARDS_EXPENSE_ACCOUNT_ID = '00000000-0000-4000-8000-000000000003';
/** The points issuance account (migration 031): points are awarded from it and return to it when redeemed. */
export const POINTS_ACCOUNT_ID = '00000000-0000-4000-8000-000000000004';
export const DEFAULT_PENDING_TIMEOUT_MS = 15 * 60_000;
export const MAX_ATTEMPTS = 5;
const ACCOUNT_ID_CACHE_SIZE = 100_000;
/** serialization_failure, deadlock_detected, unique_violation (two first uses of one id racing). */
export const RETRYABLE = new Set(['40001', '40P01', '23505']);

export type TransferRecord = Selectable<LedgerTransfersTable>;

export interface TransferInput {
  /** Client-made id: the idempotency key. */
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
  kind: TransferKind;
  /** Two-phase: reserve now, post or void later (before the timeout). */
  pending?: { timeoutMs: number } | undefined;
  reversesId?: string | undefined;
  /** Anything else the id is bound to beyond the transfer itself (a withdrawal's bank account). */
  binds?: string | undefined;
  initiatedBy?: string | undefined;
  /**
   * Runs inside the transfer's transaction on its first use (not on a replay); throwing rolls everything
   * back, the id included. Used to consume the OTP verification a user transfer needs.
   */
  guard?: ((trx: Transaction<Schema>) => Promise<void>) | undefined;
  /** Runs inside the same transaction right after the transfer is written (records that point at it). */
  onRecorded?: ((trx: Transaction<Schema>, transfer: TransferRecord) => Promise<void>) | undefined;
}

export function toState(row: Selectable<LedgerAccountsTable>): AccountState {
  return {
    id: row.id,
    kind: row.kind,
    asset: row.asset,
    debitsPosted: row.debits_posted,
    creditsPosted: row.credits_posted,
    debitsPending: row.debits_pending,
    creditsPending: row.credits_pending,
  };
}

/** A stable uuid for a text (a per-user idempotency key, a reversal of a given transfer). */
export function uuidFromText(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function hashRequest(fields: Parameters<typeof requestFingerprint>[0]): string {
  return createHash('sha256').update(requestFingerprint(fields)).digest('hex');
}

/** What a transfer's id is bound to: the same id with another body is refused (409). */
export function transferRequestHash(
  input: Pick<
    TransferInput,
    'debitAccountId' | 'creditAccountId' | 'amountPaise' | 'kind' | 'pending' | 'reversesId' | 'binds'
  >,
): string {
  return hashRequest({
    op: 'transfer',
    debit: input.debitAccountId,
    credit: input.creditAccountId,
    amount: input.amountPaise,
    kind: input.kind,
    pending_ms: input.pending?.timeoutMs,
    reverses: input.reversesId,
    // Only when present, so the fingerprints of transfers without it stay what they were.
    ...(input.binds === undefined ? {} : { binds: input.binds }),
  });
}

/**
 * The double-entry ledger on PostgreSQL (or PGlite). Every change is a batch of one through the ledger's
 * posting functions (routines/ledger_post.sql, where its rules are written once), in one READ COMMITTED
 * transaction: claim the request id, post it (lock the accounts in id order, check the rules, write the
 * counters and the immutable transfer). Retried a bounded number of times on serialization failures and
 * deadlocks.
 */
export class Ledger {
  readonly #accountIds = new Map<string, string>();

  /** The ledger's clock: it sets pending transfers' timeouts and decides when they have expired. */
  readonly now: () => Date;

  constructor(
    private readonly db: Kysely<Schema>,
    readonly limits: LedgerLimits = DEFAULT_LIMITS,
    options: { now?: () => Date } = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  ensureUserAccount(userId: string): Promise<string> {
    return this.#ensureAccount('user', userId);
  }

  ensureMerchantAccount(merchantId: string): Promise<string> {
    return this.#ensureAccount('merchant', merchantId);
  }

  /** The owner's account, opened on first use. An owner's account id never changes, so it is cached. */
  async #ensureAccount(kind: 'user' | 'merchant', ownerId: string): Promise<string> {
    const cacheKey = `${kind}:${ownerId}`;
    const cached = this.#accountIds.get(cacheKey);
    if (cached !== undefined) return cached;
    const owner = kind === 'user' ? 'user_id' : 'merchant_id';
    const find = () =>
      this.db.selectFrom('ledger_accounts').select('id').where(owner, '=', ownerId).executeTakeFirst();
    let row = await find();
    if (!row) {
      await this.db
        .insertInto('ledger_accounts')
        .values({ kind, [owner]: ownerId })
        .onConflict((conflict) => conflict.column(owner).doNothing())
        .execute();
      row = await find();
    }
    if (!row) throw new Error(`ledger account for ${cacheKey} could not be opened`);
    if (this.#accountIds.size >= ACCOUNT_ID_CACHE_SIZE) this.#accountIds.clear();
    this.#accountIds.set(cacheKey, row.id);
    return row.id;
  }

  /**
   * A person's points account (kind 'points'), opened on first use, through `db` (pass the transaction when
   * inside one: on PGlite a statement outside it would wait for it).
   */
  async ensurePointsAccount(
    userId: string,
    db: Kysely<Schema> | Transaction<Schema> = this.db,
  ): Promise<string> {
    const cacheKey = `points:${userId}`;
    const cached = this.#accountIds.get(cacheKey);
    if (cached !== undefined) return cached;
    const find = () =>
      db.selectFrom('ledger_accounts').select('id').where('points_user_id', '=', userId).executeTakeFirst();
    let row = await find();
    if (!row) {
      await db
        .insertInto('ledger_accounts')
        .values({ kind: 'points', asset: 'points', points_user_id: userId })
        .onConflict((conflict) => conflict.column('points_user_id').doNothing())
        .execute();
      row = await find();
    }
    if (!row) throw new Error(`points account for ${userId} could not be opened`);
    if (this.#accountIds.size >= ACCOUNT_ID_CACHE_SIZE) this.#accountIds.clear();
    this.#accountIds.set(cacheKey, row.id);
    return row.id;
  }

  /**
   * A single-phase transfer written inside the caller's transaction (READ COMMITTED), through the same
   * posting functions: a reward in a payment's transaction, the two legs of a redemption. A used id answers
   * its stored transfer (a replay writes nothing); a refusal throws LedgerError (the caller's transaction
   * then rolls back, or, if the caller goes on, the refusal is stored against the id).
   */
  async transferWithin(
    trx: Transaction<Schema>,
    input: Omit<TransferInput, 'pending' | 'guard' | 'onRecorded'>,
  ): Promise<TransferRecord> {
    const requestHash = transferRequestHash(input);
    const [claim] = await claimTransfers(trx, [{ id: input.id, requestHash }]);
    if (claim !== 'claimed') {
      if (typeof claim === 'string') throw new LedgerError(claim);
      return claim!;
    }
    const [posted] = await postClaimed(
      trx,
      [
        {
          id: input.id,
          phase: 'single',
          debitAccountId: input.debitAccountId,
          creditAccountId: input.creditAccountId,
          amountPaise: input.amountPaise,
          kind: input.kind,
          reversesId: input.reversesId,
          initiatedBy: input.initiatedBy,
        },
      ],
      this.limits,
      this.now(),
    );
    if (typeof posted === 'string') throw new LedgerError(posted);
    return posted!;
  }

  async account(id: string): Promise<AccountState | undefined> {
    const row = await this.db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toState(row) : undefined;
  }

  /** A single-phase or pending transfer. Same id and body returns the stored result; a failed id stays failed. */
  transfer(input: TransferInput): Promise<TransferRecord> {
    const posting: Posting = {
      id: input.id,
      phase: input.pending ? 'pending' : 'single',
      debitAccountId: input.debitAccountId,
      creditAccountId: input.creditAccountId,
      amountPaise: input.amountPaise,
      kind: input.kind,
      timeoutMs: input.pending?.timeoutMs,
      reversesId: input.reversesId,
      initiatedBy: input.initiatedBy,
    };
    return this.#run(posting, transferRequestHash(input), input.guard, input.onRecorded);
  }

  /** Posts or voids a pending transfer, once. Posting after its timeout is refused; voiding is always allowed. */
  resolve(input: {
    id: string;
    pendingId: string;
    action: 'post' | 'void';
    initiatedBy?: string | undefined;
    /** As a transfer's: runs inside the transaction on the id's first use; throwing rolls everything back. */
    guard?: ((trx: Transaction<Schema>) => Promise<void>) | undefined;
    /** Runs inside the same transaction right after the resolution is written, given the pending transfer. */
    onRecorded?: ((trx: Transaction<Schema>, pending: TransferRecord) => Promise<void>) | undefined;
  }): Promise<TransferRecord> {
    const requestHash = hashRequest({ op: input.action, pending: input.pendingId });
    const { onRecorded } = input;
    return this.#run(
      { id: input.id, phase: input.action, pendingId: input.pendingId, initiatedBy: input.initiatedBy },
      requestHash,
      input.guard,
      onRecorded &&
        (async (trx) => {
          const pending = await trx
            .selectFrom('ledger_transfers')
            .selectAll()
            .where('id', '=', input.pendingId)
            .executeTakeFirstOrThrow();
          await onRecorded(trx, pending);
        }),
    );
  }

  async findTransfer(id: string): Promise<TransferRecord | undefined> {
    return this.db.selectFrom('ledger_transfers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Pending transfers past their timeout and not yet posted or voided, the longest overdue first. */
  async expiredPending(limit: number, now: Date = this.now()): Promise<TransferRecord[]> {
    return this.db
      .selectFrom('ledger_transfers as t')
      .selectAll('t')
      .where('t.phase', '=', 'pending')
      .where('t.timeout_at', '<=', now)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('ledger_transfers as r').select('r.id').whereRef('r.pending_id', '=', 't.id'))),
      )
      .orderBy('t.timeout_at')
      .limit(limit)
      .execute();
  }

  /**
   * One write, a batch of one through the ledger's posting functions: claims the id (a used id answers what
   * it answered before), runs the guard on first use, posts (the rules; a refusal is stored so the id stays
   * failed), then runs onRecorded, all in one READ COMMITTED transaction, retried a bounded number of times.
   */
  async #run(
    posting: Posting,
    requestHash: string,
    guard: ((trx: Transaction<Schema>) => Promise<void>) | undefined,
    onRecorded: ((trx: Transaction<Schema>, transfer: TransferRecord) => Promise<void>) | undefined,
  ): Promise<TransferRecord> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const outcome = await this.db
          .transaction()
          .setIsolationLevel('read committed')
          .execute(async (trx): Promise<TransferRecord | LedgerErrorCode> => {
            const [claim] = await claimTransfers(trx, [{ id: posting.id, requestHash }]);
            if (claim !== 'claimed') return claim!;
            if (guard) await guard(trx);
            const [posted] = await postClaimed(trx, [posting], this.limits, this.now());
            if (typeof posted !== 'string' && onRecorded) await onRecorded(trx, posted!);
            return posted!;
          });
        if (typeof outcome === 'string') throw new LedgerError(outcome);
        return outcome;
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
        throw error;
      }
    }
  }
}

/**
 * Runs `work` in one READ COMMITTED transaction (the ledger's posting functions require it), retried a bounded
 * number of times on serialization failures, deadlocks and racing first uses of an id, as every ledger write.
 */
export async function inLedgerTransaction<T>(
  db: Kysely<Schema>,
  work: (trx: Transaction<Schema>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().setIsolationLevel('read committed').execute(work);
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
      throw error;
    }
  }
}

/** Findings of the auditor; empty when the books balance. */
export async function auditLedger(db: Kysely<Schema>): Promise<string[]> {
  const findings: string[] = [];
  // Each asset balances on its own: rupees and points (migration 031) never mix.
  const totals = await sql<{ asset: string; posted: string; pending: string }>`
    SELECT assets.asset,
           COALESCE(SUM(a.credits_posted - a.debits_posted), 0)::text AS posted,
           COALESCE(SUM(a.credits_pending - a.debits_pending), 0)::text AS pending
    FROM (VALUES ('inr'), ('points')) AS assets(asset)
    LEFT JOIN ledger_accounts a ON a.asset = assets.asset
    GROUP BY assets.asset ORDER BY assets.asset`.execute(db);
  for (const total of totals.rows) {
    // The rupee lines keep their words; the points lines name their asset.
    const what = total.asset === 'inr' ? '' : `${total.asset} `;
    if (total.posted !== '0') findings.push(`${what}posted balances sum to ${total.posted}, not 0`);
    if (total.pending !== '0') findings.push(`${what}pending balances sum to ${total.pending}, not 0`);
  }
  const mixed = await sql<{ id: string }>`
    SELECT t.id FROM ledger_transfers t
    JOIN ledger_accounts d ON d.id = t.debit_account_id
    JOIN ledger_accounts c ON c.id = t.credit_account_id
    WHERE d.asset <> c.asset`.execute(db);
  for (const row of mixed.rows) findings.push(`transfer ${row.id} moves between two assets`);

  const mismatched = await sql<{ id: string }>`
    WITH effects AS (
      SELECT t.debit_account_id AS account_id,
             CASE WHEN t.phase IN ('single', 'post') THEN t.amount_paise ELSE 0 END AS debit_posted,
             0::bigint AS credit_posted,
             CASE WHEN t.phase = 'pending' THEN t.amount_paise
                  WHEN t.phase IN ('post', 'void') THEN -t.amount_paise ELSE 0 END AS debit_pending,
             0::bigint AS credit_pending
      FROM ledger_transfers t
      UNION ALL
      SELECT t.credit_account_id, 0, CASE WHEN t.phase IN ('single', 'post') THEN t.amount_paise ELSE 0 END,
             0, CASE WHEN t.phase = 'pending' THEN t.amount_paise
                     WHEN t.phase IN ('post', 'void') THEN -t.amount_paise ELSE 0 END
      FROM ledger_transfers t
    ), sums AS (
      SELECT account_id, SUM(debit_posted) AS dp, SUM(credit_posted) AS cp, SUM(debit_pending) AS dq, SUM(credit_pending) AS cq
      FROM effects GROUP BY account_id
    )
    SELECT a.id FROM ledger_accounts a LEFT JOIN sums s ON s.account_id = a.id
    WHERE a.debits_posted <> COALESCE(s.dp, 0) OR a.credits_posted <> COALESCE(s.cp, 0)
       OR a.debits_pending <> COALESCE(s.dq, 0) OR a.credits_pending <> COALESCE(s.cq, 0)`.execute(db);
  for (const row of mismatched.rows)
    findings.push(`account ${row.id} does not equal the sum of its transfers`);

  const negative = await sql<{ id: string }>`
    SELECT id FROM ledger_accounts WHERE kind <> 'system' AND credits_posted - debits_posted - debits_pending < 0`.execute(
    db,
  );
  for (const row of negative.rows) findings.push(`account ${row.id} is overdrawn`);

  const orphans = await sql<{ id: string }>`
    SELECT r.id FROM ledger_requests r LEFT JOIN ledger_transfers t ON t.id = r.id
    WHERE (r.error_code IS NULL) <> (t.id IS NOT NULL)`.execute(db);
  for (const row of orphans.rows) findings.push(`request ${row.id} and its transfer disagree`);
  return findings;
}
