import {
  DEFAULT_LIMITS,
  LedgerError,
  type LedgerErrorCode,
  type LedgerLimits,
  type TransferKind,
} from '@hasta/ledger/rules';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { sqlState } from '../db/errors';
import { MAX_ATTEMPTS, RETRYABLE, transferRequestHash, type TransferRecord } from './ledger';

/** Most transfers written by one database transaction. */
export const MAX_BATCH_SIZE = 256;
/** Most transfers waiting for a batch; beyond it callers are refused at once rather than queued without end. */
export const MAX_QUEUE_LENGTH = 20_000;

/** A one-time-code verification a transfer spends: one verification, one transfer. */
export interface VerificationToSpend {
  sessionId: string;
  purpose: string;
  /** Verifications made before this instant have expired. */
  createdAfter: Date;
}

export interface BatchedTransferInput {
  /** Client-made id: the idempotency key. */
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
  kind: TransferKind;
  initiatedBy?: string | undefined;
  /** Spent in the transfer's own transaction on its first use (never on a replay). */
  verification?: VerificationToSpend | undefined;
  /**
   * The email or phone the transfer was addressed to: it is written only if that address still names
   * `creditAccountId` (the owner's store when they are a merchant with one, else their own account), so the
   * caller may have found the receiver in a cache.
   */
  receiverAddress?: string | undefined;
}

/** The transfer's address no longer names its credit account: nothing was written or spent, the id is free. */
export class ReceiverChangedError extends Error {
  constructor() {
    super('receiver_changed');
    this.name = 'ReceiverChangedError';
  }
}

/** The transfer needed a fresh verification and its session had none: nothing was written, the id is free. */
export class VerificationMissingError extends Error {
  constructor() {
    super('verification_missing');
    this.name = 'VerificationMissingError';
  }
}

interface Waiting {
  input: BatchedTransferInput;
  requestHash: string;
  resolve: (record: TransferRecord) => void;
  reject: (error: unknown) => void;
}

type Outcome = TransferRecord | LedgerErrorCode | 'verification_missing' | 'receiver_changed';

/**
 * Group commit for single-phase transfers: requests that arrive while a batch is being written wait for the
 * next one, and each batch is one statement whatever its size — the database function `ledger_post_batch`
 * (migrations 014 and 015, decisions 018 and 019), one round trip in its own READ COMMITTED transaction: it
 * claims the ids, spends the verifications (an insert into `verification_spends`), locks every account
 * involved in id order (`FOR UPDATE`), applies the ledger's rules in arrival order and writes the
 * counters, the transfers and the refusals, giving back the ids of
 * transfers that had no verification to spend or whose receiver address names another account now. (A
 * replay adds one read.) The outcome of every transfer is
 * exactly what `Ledger.transfer` would give: the same request hash, the same idempotency and refusal rules;
 * the tests hold the function to the reference model. If a batch fails for a reason other than a retryable
 * conflict, its transfers are run one by one, so one bad transfer cannot sink the others.
 */
export class TransferBatcher {
  readonly #queue: Waiting[] = [];
  /** Ids and sessions of the batches being written: a later batch never shares one with them. */
  readonly #busyIds = new Set<string>();
  readonly #busySessions = new Set<string>();
  #inFlight = 0;
  #scheduled = false;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: {
      limits?: LedgerLimits;
      /** Batches written at once: 1 for PGlite (one connection), 2 for PostgreSQL to overlap round trips. */
      maxInFlight?: number;
    } = {},
  ) {}

  get #limits(): LedgerLimits {
    return this.options.limits ?? DEFAULT_LIMITS;
  }

  submit(input: BatchedTransferInput): Promise<TransferRecord> {
    if (this.#queue.length >= MAX_QUEUE_LENGTH)
      return Promise.reject(new Error('the transfer queue is full; try again'));
    return new Promise<TransferRecord>((resolve, reject) => {
      this.#queue.push({ input, requestHash: transferRequestHash(input), resolve, reject });
      this.#schedule();
    });
  }

  /** Starts batches on the next turn of the event loop, so requests arriving together share one. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#startBatches();
    });
  }

  #startBatches(): void {
    const maxInFlight = this.options.maxInFlight ?? 1;
    while (this.#inFlight < maxInFlight && this.#queue.length > 0) {
      const batch = this.#takeBatch();
      if (batch.length === 0) return;
      this.#inFlight += 1;
      for (const w of batch) {
        this.#busyIds.add(w.input.id);
        if (w.input.verification) this.#busySessions.add(w.input.verification.sessionId);
      }
      void this.#runBatch(batch).finally(() => {
        for (const w of batch) {
          this.#busyIds.delete(w.input.id);
          if (w.input.verification) this.#busySessions.delete(w.input.verification.sessionId);
        }
        this.#inFlight -= 1;
        if (this.#queue.length > 0) this.#startBatches();
      });
    }
  }

  /** The next batch: ids and sessions distinct within it and from the batches in flight. */
  #takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const ids = new Set<string>();
    const sessions = new Set<string>();
    const rest: Waiting[] = [];
    for (const waiting of this.#queue) {
      const { id } = waiting.input;
      const session = waiting.input.verification?.sessionId;
      if (
        batch.length >= MAX_BATCH_SIZE ||
        ids.has(id) ||
        this.#busyIds.has(id) ||
        (session !== undefined && (sessions.has(session) || this.#busySessions.has(session)))
      ) {
        rest.push(waiting);
        continue;
      }
      batch.push(waiting);
      ids.add(id);
      if (session !== undefined) sessions.add(session);
    }
    this.#queue.splice(0, this.#queue.length, ...rest);
    return batch;
  }

  async #runBatch(batch: Waiting[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.#writeWithRetries(batch);
    } catch {
      // The fallback after a failed batch: the same transfers, each in a statement of its own.
      for (const waiting of batch) {
        try {
          settle(waiting, (await this.#writeWithRetries([waiting]))[0]!);
        } catch (error) {
          waiting.reject(error);
        }
      }
      return;
    }
    batch.forEach((waiting, i) => settle(waiting, outcomes[i]!));
  }

  async #writeWithRetries(batch: Waiting[]): Promise<Outcome[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#write(batch);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
      }
    }
  }

  /**
   * The batch in one statement, `ledger_post_batch` (migrations 014 and 015): it claims the ids, spends the
   * verifications, locks the accounts in id order, applies the rules in arrival order and writes the
   * counters, the transfers and the refusals — one round trip, in the statement's own READ COMMITTED
   * transaction. A replay is read afterwards (the claim waited for the transaction that made it).
   */
  async #write(batch: Waiting[]): Promise<Outcome[]> {
    const inputs = batch.map((w) => w.input);
    const limits = this.#limits;
    const result = await sql<{ n: number; outcome: string; seq: bigint | null; created_at: Date | null }>`
      SELECT n, outcome, seq, created_at FROM ledger_post_batch(
        ${inputs.map((t) => t.id)}::uuid[], ${batch.map((w) => w.requestHash)}::text[],
        ${inputs.map((t) => t.debitAccountId)}::uuid[], ${inputs.map((t) => t.creditAccountId)}::uuid[],
        ${inputs.map((t) => t.amountPaise.toString())}::int8[], ${inputs.map((t) => t.kind)}::text[],
        ${inputs.map((t) => t.initiatedBy ?? null)}::uuid[],
        ${inputs.map((t) => t.verification?.sessionId ?? null)}::uuid[],
        ${inputs.map((t) => t.verification?.purpose ?? null)}::text[],
        ${inputs.map((t) => t.verification?.createdAfter.toISOString() ?? null)}::timestamptz[],
        ${inputs.map((t) => t.receiverAddress ?? null)}::text[],
        ${limits.minAmountPaise.toString()}::int8, ${limits.maxBalancePaise.toString()}::int8)`.execute(
      this.db,
    );
    if (result.rows.length !== batch.length)
      throw new Error(`a batch of ${batch.length} transfers had ${result.rows.length} outcomes`);
    const outcomes = new Array<Outcome | 'replay'>(batch.length);
    for (const row of result.rows) {
      const i = row.n - 1;
      const input = inputs[i];
      if (input === undefined || outcomes[i] !== undefined) throw new Error(`outcome ${row.n} out of place`);
      if (row.outcome === 'ok') {
        if (row.seq === null || row.created_at === null)
          throw new Error(`transfer ${input.id} was not written`);
        outcomes[i] = {
          id: input.id,
          seq: BigInt(row.seq),
          debit_account_id: input.debitAccountId,
          credit_account_id: input.creditAccountId,
          amount_paise: input.amountPaise,
          kind: input.kind,
          phase: 'single',
          pending_id: null,
          timeout_at: null,
          reverses_id: null,
          initiated_by: input.initiatedBy ?? null,
          created_at: row.created_at,
        };
      } else if (
        row.outcome === 'replay' ||
        row.outcome === 'verification_missing' ||
        row.outcome === 'receiver_changed'
      ) {
        outcomes[i] = row.outcome;
      } else if (LEDGER_ERROR_CODES.has(row.outcome as LedgerErrorCode)) {
        outcomes[i] = row.outcome as LedgerErrorCode;
      } else {
        throw new Error(`transfer ${input.id}: unknown outcome ${row.outcome}`);
      }
    }
    const replays = batch.filter((_, i) => outcomes[i] === 'replay');
    if (replays.length > 0) {
      const previous = await replayOutcomes(this.db, replays);
      batch.forEach((w, i) => {
        if (outcomes[i] === 'replay') outcomes[i] = previous.get(w.input.id)!;
      });
    }
    // Every transfer of the batch has exactly one outcome.
    outcomes.forEach((outcome, i) => {
      if (outcome === undefined || outcome === 'replay')
        throw new Error(`transfer ${inputs[i]!.id} has no outcome`);
    });
    return outcomes as Outcome[];
  }
}

function settle(waiting: Waiting, outcome: Outcome): void {
  if (outcome === 'verification_missing') waiting.reject(new VerificationMissingError());
  else if (outcome === 'receiver_changed') waiting.reject(new ReceiverChangedError());
  else if (typeof outcome === 'string') waiting.reject(new LedgerError(outcome));
  else waiting.resolve(outcome);
}

/** The refusals the batch function may store against an id. */
const LEDGER_ERROR_CODES = new Set<LedgerErrorCode>([
  'amount_invalid',
  'same_account',
  'account_not_found',
  'insufficient_funds',
  'balance_limit_exceeded',
]);

/** What an id already used answers: its stored transfer, its stored refusal, or 409 for another body. */
async function replayOutcomes(db: Kysely<Schema>, replays: Waiting[]): Promise<Map<string, Outcome>> {
  const ids = replays.map((w) => w.input.id);
  const requests = await db
    .selectFrom('ledger_requests')
    .select(['id', 'request_hash', 'error_code'])
    .where('id', 'in', ids)
    .execute();
  const transfers = await db.selectFrom('ledger_transfers').selectAll().where('id', 'in', ids).execute();
  const requestById = new Map(requests.map((row) => [row.id, row]));
  const transferById = new Map(transfers.map((row) => [row.id, row]));
  const outcomes = new Map<string, Outcome>();
  for (const w of replays) {
    const request = requestById.get(w.input.id);
    const transfer = transferById.get(w.input.id);
    if (!request || (request.error_code === null && !transfer))
      throw new Error(`request ${w.input.id} was claimed but not found`);
    if (request.request_hash !== w.requestHash) outcomes.set(w.input.id, 'id_reused');
    else if (request.error_code !== null) outcomes.set(w.input.id, request.error_code as LedgerErrorCode);
    else outcomes.set(w.input.id, transfer!);
  }
  return outcomes;
}
