import {
  applyTransfer,
  checkTransfer,
  DEFAULT_LIMITS,
  LedgerError,
  type AccountState,
  type LedgerErrorCode,
  type LedgerLimits,
  type TransferKind,
} from '@hasta/ledger/rules';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import {
  errorCode,
  MAX_ATTEMPTS,
  RETRYABLE,
  transferRequestHash,
  type Ledger,
  type TransferRecord,
} from './ledger';

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

type Outcome = TransferRecord | LedgerErrorCode | 'verification_missing';

/**
 * Group commit for single-phase transfers: requests that arrive while a batch is being written wait for the
 * next one, and each batch is one READ COMMITTED transaction of two statements whatever its size (four round
 * trips with BEGIN and COMMIT): the first claims the ids, spends the verifications and locks every account
 * involved in id order (`FOR UPDATE`); the ledger's rules are applied in memory in arrival order; the second
 * writes the counters, the transfers and the refusals, and gives back the ids of transfers that had no
 * verification to spend. (A replay adds one read.) The outcome of every transfer is exactly what `Ledger.transfer` would
 * give: the same request hash, the same idempotency and refusal rules. If a batch fails for a reason other
 * than a retryable conflict, its transfers are run one by one through `Ledger.transfer`, so one bad transfer
 * cannot sink the others.
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
    private readonly ledger: Ledger,
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
    let outcomes: Outcome[] | undefined;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && outcomes === undefined; attempt += 1) {
      try {
        outcomes = await this.db
          .transaction()
          .setIsolationLevel('read committed')
          .execute((trx) => this.#write(trx, batch));
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && RETRYABLE.has(errorCode(error) ?? '')) continue;
        await this.#oneByOne(batch);
        return;
      }
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes![i]!;
      if (outcome === 'verification_missing') waiting.reject(new VerificationMissingError());
      else if (typeof outcome === 'string') waiting.reject(new LedgerError(outcome));
      else waiting.resolve(outcome);
    });
  }

  /** The fallback after a failed batch: the same transfers, each in its own transaction. */
  async #oneByOne(batch: Waiting[]): Promise<void> {
    for (const { input, resolve, reject } of batch) {
      const verification = input.verification;
      try {
        resolve(
          await this.ledger.transfer({
            ...input,
            guard: verification
              ? async (trx) => {
                  const spent = await spendVerifications(trx, [verification]);
                  if (spent.size === 0) throw new VerificationMissingError();
                }
              : undefined,
          }),
        );
      } catch (error) {
        reject(error);
      }
    }
  }

  async #write(trx: Transaction<Schema>, batch: Waiting[]): Promise<Outcome[]> {
    const outcomes = new Array<Outcome | undefined>(batch.length);

    // 1. One statement: claim the ids, spend one verification per claimed transfer that needs one, and lock
    // every account the batch names, in one global order (`ORDER BY id FOR UPDATE`). An id already claimed
    // (by an earlier request, or one being written right now, which the insert waits for) is a replay, and a
    // replay spends nothing.
    const needing = batch.filter((w) => w.input.verification);
    const accountIds = [
      ...new Set(batch.flatMap((w) => [w.input.debitAccountId, w.input.creditAccountId])),
    ].sort();
    const first = await sql<{
      k: 'account' | 'claimed' | 'spent';
      id: string;
      kind: AccountState['kind'] | null;
      debits_posted: bigint | null;
      credits_posted: bigint | null;
      debits_pending: bigint | null;
      credits_pending: bigint | null;
    }>`
      WITH claimed AS (
        INSERT INTO ledger_requests (id, request_hash)
        SELECT * FROM unnest(${batch.map((w) => w.input.id)}::uuid[], ${batch.map((w) => w.requestHash)}::text[])
        ON CONFLICT (id) DO NOTHING
        RETURNING id
      ), wanted AS (
        SELECT w.* FROM unnest(${needing.map((w) => w.input.id)}::uuid[], ${needing.map((w) => w.input.verification!.sessionId)}::uuid[],
                               ${needing.map((w) => w.input.verification!.purpose)}::text[],
                               ${needing.map((w) => w.input.verification!.createdAfter.toISOString())}::timestamptz[])
                    AS w(transfer_id, session_id, purpose, created_after)
        JOIN claimed ON claimed.id = w.transfer_id
      ), spent AS (${spendStatement(sql`wanted`)}
      ), locked AS (
        SELECT * FROM ledger_accounts WHERE id = ANY(${accountIds}::uuid[]) ORDER BY id FOR UPDATE
      )
      SELECT 'account' AS k, id, kind, debits_posted, credits_posted, debits_pending, credits_pending FROM locked
      UNION ALL SELECT 'claimed', id, NULL, NULL, NULL, NULL, NULL FROM claimed
      UNION ALL SELECT 'spent', session_id, NULL, NULL, NULL, NULL, NULL FROM spent`.execute(trx);
    const claimed = new Set<string>();
    const spent = new Set<string>();
    const accounts = new Map<string, AccountState>();
    for (const row of first.rows) {
      if (row.k === 'claimed') claimed.add(row.id);
      else if (row.k === 'spent') spent.add(row.id);
      else
        accounts.set(row.id, {
          id: row.id,
          kind: row.kind!,
          debitsPosted: BigInt(row.debits_posted!),
          creditsPosted: BigInt(row.credits_posted!),
          debitsPending: BigInt(row.debits_pending!),
          creditsPending: BigInt(row.credits_pending!),
        });
    }
    const replays = batch.filter((w) => !claimed.has(w.input.id));
    if (replays.length > 0) {
      const previous = await replayOutcomes(trx, replays);
      batch.forEach((w, i) => {
        if (!claimed.has(w.input.id)) outcomes[i] = previous.get(w.input.id)!;
      });
    }

    // 2. A claimed transfer whose session had no verification to spend gives its id back.
    const unclaim: string[] = [];
    batch.forEach((w, i) => {
      const session = w.input.verification?.sessionId;
      if (claimed.has(w.input.id) && session !== undefined && !spent.has(session)) {
        outcomes[i] = 'verification_missing';
        claimed.delete(w.input.id);
        unclaim.push(w.input.id);
      }
    });

    // 3. Apply the rules in memory, in arrival order.
    const changed = new Set<AccountState>();
    const accepted: { w: Waiting; i: number }[] = [];
    const refused: { id: string; code: LedgerErrorCode }[] = [];
    batch.forEach((w, i) => {
      if (!claimed.has(w.input.id) || outcomes[i] !== undefined) return;
      const { input } = w;
      const debit = accounts.get(input.debitAccountId);
      const credit = accounts.get(input.creditAccountId);
      let code: LedgerErrorCode | null;
      if (input.amountPaise < this.#limits.minAmountPaise) code = 'amount_invalid';
      else if (!debit || !credit)
        code = input.debitAccountId === input.creditAccountId ? 'same_account' : 'account_not_found';
      else code = checkTransfer(debit, credit, input.amountPaise, this.#limits);
      if (code !== null) {
        outcomes[i] = code;
        refused.push({ id: input.id, code });
        return;
      }
      applyTransfer(debit!, credit!, input.amountPaise, 'single');
      changed.add(debit!).add(credit!);
      accepted.push({ w, i });
    });

    // 4. One statement: the counters, the transfers, the refusals and the ids given back.
    if (changed.size + accepted.length + refused.length + unclaim.length > 0) {
      const rows = [...changed];
      const inputs = accepted.map(({ w }) => w.input);
      const written = await sql<TransferRecord>`
        WITH counters AS (
          UPDATE ledger_accounts AS a
          SET debits_posted = v.dp, credits_posted = v.cp, debits_pending = v.dq, credits_pending = v.cq
          FROM unnest(${rows.map((a) => a.id)}::uuid[], ${rows.map((a) => a.debitsPosted.toString())}::int8[],
                      ${rows.map((a) => a.creditsPosted.toString())}::int8[], ${rows.map((a) => a.debitsPending.toString())}::int8[],
                      ${rows.map((a) => a.creditsPending.toString())}::int8[]) AS v(id, dp, cp, dq, cq)
          WHERE a.id = v.id
          RETURNING a.id
        ), refusals AS (
          UPDATE ledger_requests AS r SET error_code = v.code
          FROM unnest(${refused.map((r) => r.id)}::uuid[], ${refused.map((r) => r.code)}::text[]) AS v(id, code)
          WHERE r.id = v.id
          RETURNING r.id
        ), given_back AS (
          DELETE FROM ledger_requests WHERE id = ANY(${unclaim}::uuid[]) RETURNING id
        )
        INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount_paise, kind, phase, initiated_by)
        SELECT id, debit, credit, amount, kind, 'single', initiated_by
        FROM unnest(${inputs.map((t) => t.id)}::uuid[], ${inputs.map((t) => t.debitAccountId)}::uuid[],
                    ${inputs.map((t) => t.creditAccountId)}::uuid[], ${inputs.map((t) => t.amountPaise.toString())}::int8[],
                    ${inputs.map((t) => t.kind)}::text[], ${inputs.map((t) => t.initiatedBy ?? null)}::uuid[])
             WITH ORDINALITY AS v(id, debit, credit, amount, kind, initiated_by, n)
        ORDER BY n
        RETURNING *`.execute(trx);
      const byId = new Map(written.rows.map((row) => [row.id, row]));
      for (const { w, i } of accepted) outcomes[i] = byId.get(w.input.id)!;
    }

    // Every transfer of the batch has exactly one outcome before the transaction commits.
    outcomes.forEach((outcome, i) => {
      if (outcome === undefined) throw new Error(`transfer ${batch[i]!.input.id} has no outcome`);
    });
    return outcomes as Outcome[];
  }
}

/** What an id already used answers: its stored transfer, its stored refusal, or 409 for another body. */
async function replayOutcomes(trx: Transaction<Schema>, replays: Waiting[]): Promise<Map<string, Outcome>> {
  const ids = replays.map((w) => w.input.id);
  const requests = await trx
    .selectFrom('ledger_requests')
    .select(['id', 'request_hash', 'error_code'])
    .where('id', 'in', ids)
    .execute();
  const transfers = await trx.selectFrom('ledger_transfers').selectAll().where('id', 'in', ids).execute();
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

/**
 * Spends the newest unspent, unexpired verification of each session (sessions are distinct), provided the
 * session is still live and its user has no password change pending — checked here, inside the transfer's
 * transaction, so callers may identify the session from a cache. Returns the sessions that had one. A verification spent concurrently elsewhere is re-checked by the UPDATE after its
 * row lock and is not spent twice.
 */
export async function spendVerifications(
  trx: Transaction<Schema>,
  wanted: VerificationToSpend[],
): Promise<Set<string>> {
  const spent = await sql<{ session_id: string }>`
    WITH wanted AS (
      SELECT * FROM unnest(${wanted.map((w) => w.sessionId)}::uuid[], ${wanted.map((w) => w.purpose)}::text[],
                           ${wanted.map((w) => w.createdAfter.toISOString())}::timestamptz[]) AS w(session_id, purpose, created_after)
    )
    ${spendStatement(sql`wanted`)}`.execute(trx);
  return new Set(spent.rows.map((row) => row.session_id));
}

/**
 * The UPDATE that spends the newest unspent, unexpired verification of each session named by `wanted` (a
 * relation with `session_id`, `purpose` and `created_after`; sessions distinct), returning `session_id`.
 */
function spendStatement(wanted: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    UPDATE verifications AS v SET consumed_at = now()
    WHERE v.id IN (
      SELECT DISTINCT ON (c.session_id) c.id
      FROM verifications c
      JOIN ${wanted} AS w ON c.session_id = w.session_id AND c.purpose = w.purpose AND c.created_at > w.created_after
      JOIN sessions s ON s.id = c.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
      JOIN users u ON u.id = s.user_id AND NOT u.must_change_password
      WHERE c.consumed_at IS NULL
      ORDER BY c.session_id, c.created_at DESC)
    AND v.consumed_at IS NULL
    RETURNING v.session_id`;
}
