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
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { LedgerAccountsTable, Schema } from '../db/schema';
import {
  errorCode,
  MAX_ATTEMPTS,
  RETRYABLE,
  toState,
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
 * next one, and each batch is one READ COMMITTED transaction with a fixed number of statements whatever its
 * size — claim the ids, spend the verifications, lock every account involved in id order (`FOR UPDATE`),
 * apply the ledger's rules in memory in arrival order, then write the counters, the transfers and the
 * refusals with one statement each. The outcome of every transfer is exactly what `Ledger.transfer` would
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

    // 1. Claim the ids. An id already claimed (by an earlier request, or one being written right now, which
    // this insert waits for) is a replay.
    const claimedRows = await sql<{ id: string }>`
      INSERT INTO ledger_requests (id, request_hash)
      SELECT * FROM unnest(${batch.map((w) => w.input.id)}::uuid[], ${batch.map((w) => w.requestHash)}::text[])
      ON CONFLICT (id) DO NOTHING
      RETURNING id`.execute(trx);
    const claimed = new Set(claimedRows.rows.map((row) => row.id));
    const replays = batch.filter((w) => !claimed.has(w.input.id));
    if (replays.length > 0) {
      const previous = await replayOutcomes(trx, replays);
      batch.forEach((w, i) => {
        if (!claimed.has(w.input.id)) outcomes[i] = previous.get(w.input.id)!;
      });
    }

    // 2. Spend one verification per transfer that needs one; without one the transfer gives its id back.
    const needing = batch.filter((w) => claimed.has(w.input.id) && w.input.verification);
    if (needing.length > 0) {
      const spent = await spendVerifications(
        trx,
        needing.map((w) => w.input.verification!),
      );
      const unclaim: string[] = [];
      batch.forEach((w, i) => {
        const session = w.input.verification?.sessionId;
        if (claimed.has(w.input.id) && session !== undefined && !spent.has(session)) {
          outcomes[i] = 'verification_missing';
          claimed.delete(w.input.id);
          unclaim.push(w.input.id);
        }
      });
      if (unclaim.length > 0)
        await sql`DELETE FROM ledger_requests WHERE id = ANY(${unclaim}::uuid[])`.execute(trx);
    }

    // 3. Lock every account involved, in one global order, and apply the rules in arrival order.
    const fresh = batch
      .map((w, i) => ({ w, i }))
      .filter(({ w, i }) => claimed.has(w.input.id) && outcomes[i] === undefined);
    const accountIds = [
      ...new Set(fresh.flatMap(({ w }) => [w.input.debitAccountId, w.input.creditAccountId])),
    ].sort();
    const accounts = new Map<string, AccountState>();
    if (accountIds.length > 0) {
      const locked = await sql<Selectable<LedgerAccountsTable>>`
        SELECT * FROM ledger_accounts WHERE id = ANY(${accountIds}::uuid[]) ORDER BY id FOR UPDATE`.execute(
        trx,
      );
      for (const row of locked.rows) accounts.set(row.id, toState(row));
    }
    const changed = new Set<AccountState>();
    const accepted: { w: Waiting; i: number }[] = [];
    const refused: { id: string; code: LedgerErrorCode }[] = [];
    for (const { w, i } of fresh) {
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
        continue;
      }
      applyTransfer(debit!, credit!, input.amountPaise, 'single');
      changed.add(debit!).add(credit!);
      accepted.push({ w, i });
    }

    // 4. Write the counters, the transfers and the refusals: one statement each.
    if (changed.size > 0) {
      const rows = [...changed];
      await sql`
        UPDATE ledger_accounts AS a
        SET debits_posted = v.dp, credits_posted = v.cp, debits_pending = v.dq, credits_pending = v.cq
        FROM unnest(${rows.map((a) => a.id)}::uuid[], ${rows.map((a) => a.debitsPosted.toString())}::int8[],
                    ${rows.map((a) => a.creditsPosted.toString())}::int8[], ${rows.map((a) => a.debitsPending.toString())}::int8[],
                    ${rows.map((a) => a.creditsPending.toString())}::int8[]) AS v(id, dp, cp, dq, cq)
        WHERE a.id = v.id`.execute(trx);
    }
    if (accepted.length > 0) {
      const inputs = accepted.map(({ w }) => w.input);
      const written = await sql<TransferRecord>`
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
    if (refused.length > 0) {
      await sql`
        UPDATE ledger_requests AS r SET error_code = v.code
        FROM unnest(${refused.map((r) => r.id)}::uuid[], ${refused.map((r) => r.code)}::text[]) AS v(id, code)
        WHERE r.id = v.id`.execute(trx);
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
    UPDATE verifications AS v SET consumed_at = now()
    WHERE v.id IN (
      SELECT DISTINCT ON (c.session_id) c.id
      FROM verifications c
      JOIN unnest(${wanted.map((w) => w.sessionId)}::uuid[], ${wanted.map((w) => w.purpose)}::text[],
                  ${wanted.map((w) => w.createdAfter.toISOString())}::timestamptz[]) AS w(session_id, purpose, created_after)
        ON c.session_id = w.session_id AND c.purpose = w.purpose AND c.created_at > w.created_after
      JOIN sessions s ON s.id = c.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
      JOIN users u ON u.id = s.user_id AND NOT u.must_change_password
      WHERE c.consumed_at IS NULL
      ORDER BY c.session_id, c.created_at DESC)
    AND v.consumed_at IS NULL
    RETURNING v.session_id`.execute(trx);
  return new Set(spent.rows.map((row) => row.session_id));
}
