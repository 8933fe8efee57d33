import {
  DEFAULT_LIMITS,
  LedgerError,
  type LedgerErrorCode,
  type LedgerLimits,
  type TransferKind,
} from '@hasta/ledger/rules';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { sqlState } from '../db/errors';
import { MAX_ATTEMPTS, RETRYABLE, transferRequestHash, type TransferRecord } from './ledger';
import { claimTransfers, giveBack, postClaimed } from './ledger-post';

/** Most transfers written by one database transaction. */
export const MAX_BATCH_SIZE = 256;
/** Most transfers waiting for a batch; beyond it callers are refused at once rather than queued without end. */
export const MAX_QUEUE_LENGTH = 20_000;

/** A single-phase transfer for the group-commit path. */
export interface BatchedTransferInput {
  /** Client-made id: the idempotency key. */
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
  kind: TransferKind;
  initiatedBy?: string | undefined;
}

/**
 * A named step of a use case that runs per batch, in the batch's transaction, after the ids are claimed and
 * before the posting: given the claimed transfers still in the batch (never a replay), it answers the ones to
 * give back — nothing is written for them, their ids are freed — with the error each caller gets.
 */
export type BatchStep<T extends BatchedTransferInput> = (
  trx: Transaction<Schema>,
  transfers: readonly T[],
) => Promise<ReadonlyMap<string, Error>>;

export interface BatchSteps<T extends BatchedTransferInput> {
  /** Run in order; a transfer given back by one is not shown to the next. */
  steps: readonly BatchStep<T>[];
  /** A key two transfers of one batch (or of two batches in flight) never share, e.g. the session a step spends from. */
  exclusiveKey?: ((transfer: T) => string | undefined) | undefined;
}

interface Waiting<T> {
  input: T;
  requestHash: string;
  resolve: (record: TransferRecord) => void;
  reject: (error: unknown) => void;
}

type Outcome = TransferRecord | LedgerErrorCode | Error;

/**
 * Group commit for single-phase transfers: requests that arrive while a batch is being written wait for the
 * next one, and each batch is one READ COMMITTED transaction whatever its size, through the ledger's posting
 * functions (routines/ledger_post.sql, decisions 018 and 019): claim the ids (a replay answers what it
 * answered before), run the use case's steps over the claimed transfers (e.g. spend a verification, check a
 * receiver; a transfer they give back gets its id back), then post the rest in arrival order. The outcome of
 * every transfer is exactly what `Ledger.transfer` would give: the same functions, request hash and rules.
 * If a batch fails for a reason other than a retryable conflict, its transfers are run one by one, so one bad
 * transfer cannot sink the others.
 */
export class TransferBatcher<T extends BatchedTransferInput = BatchedTransferInput> {
  readonly #queue: Waiting<T>[] = [];
  /** Ids and exclusive keys of the batches being written: a later batch never shares one with them. */
  readonly #busyIds = new Set<string>();
  readonly #busyKeys = new Set<string>();
  #inFlight = 0;
  #scheduled = false;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: {
      limits?: LedgerLimits;
      /**
       * Batches written at once: 1 for PGlite (one connection), 4 for PostgreSQL to overlap the round trips of
       * a batch's transaction (claim, the steps, post, commit).
       */
      maxInFlight?: number;
      /** The use case's steps between the claim and the posting. */
      steps?: BatchSteps<T>;
      /** The ledger's clock (the posting functions take it; single-phase transfers have no timeout). */
      now?: () => Date;
    } = {},
  ) {}

  get #limits(): LedgerLimits {
    return this.options.limits ?? DEFAULT_LIMITS;
  }

  #keyOf(input: T): string | undefined {
    return this.options.steps?.exclusiveKey?.(input);
  }

  submit(input: T): Promise<TransferRecord> {
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
      const keys = batch.map((w) => this.#keyOf(w.input)).filter((key) => key !== undefined);
      for (const w of batch) this.#busyIds.add(w.input.id);
      for (const key of keys) this.#busyKeys.add(key);
      void this.#runBatch(batch).finally(() => {
        for (const w of batch) this.#busyIds.delete(w.input.id);
        for (const key of keys) this.#busyKeys.delete(key);
        this.#inFlight -= 1;
        if (this.#queue.length > 0) this.#startBatches();
      });
    }
  }

  /** The next batch: ids and exclusive keys distinct within it and from the batches in flight. */
  #takeBatch(): Waiting<T>[] {
    const batch: Waiting<T>[] = [];
    const ids = new Set<string>();
    const keys = new Set<string>();
    const rest: Waiting<T>[] = [];
    for (const waiting of this.#queue) {
      const { id } = waiting.input;
      const key = this.#keyOf(waiting.input);
      if (
        batch.length >= MAX_BATCH_SIZE ||
        ids.has(id) ||
        this.#busyIds.has(id) ||
        (key !== undefined && (keys.has(key) || this.#busyKeys.has(key)))
      ) {
        rest.push(waiting);
        continue;
      }
      batch.push(waiting);
      ids.add(id);
      if (key !== undefined) keys.add(key);
    }
    this.#queue.splice(0, this.#queue.length, ...rest);
    return batch;
  }

  async #runBatch(batch: Waiting<T>[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.#writeWithRetries(batch);
    } catch {
      // The fallback after a failed batch: the same transfers, each in a transaction of its own.
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

  async #writeWithRetries(batch: Waiting<T>[]): Promise<Outcome[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#write(batch);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
      }
    }
  }

  /**
   * The batch in one READ COMMITTED transaction: claim the ids, run the steps over the claimed transfers,
   * give back the ids they refused, post the rest.
   */
  async #write(batch: Waiting<T>[]): Promise<Outcome[]> {
    const now = (this.options.now ?? (() => new Date()))();
    return this.db
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        const claims = await claimTransfers(
          trx,
          batch.map((w) => ({ id: w.input.id, requestHash: w.requestHash })),
        );
        let claimed = batch.filter((_, i) => claims[i] === 'claimed');
        const givenBack = new Map<string, Error>();
        for (const step of this.options.steps?.steps ?? []) {
          if (claimed.length === 0) break;
          const refused = await step(
            trx,
            claimed.map((w) => w.input),
          );
          for (const [id, error] of refused) givenBack.set(id, error);
          claimed = claimed.filter((w) => !refused.has(w.input.id));
        }
        await giveBack(trx, [...givenBack.keys()]);
        const posted = await postClaimed(
          trx,
          claimed.map((w) => ({ ...w.input, phase: 'single' as const })),
          this.#limits,
          now,
        );
        const postedById = new Map(claimed.map((w, i) => [w.input.id, posted[i]!]));
        // Every transfer of the batch has exactly one outcome.
        return batch.map((w, i): Outcome => {
          const claim = claims[i];
          const outcome =
            claim === 'claimed' ? (givenBack.get(w.input.id) ?? postedById.get(w.input.id)) : claim;
          if (outcome === undefined) throw new Error(`transfer ${w.input.id} has no outcome`);
          return outcome;
        });
      });
  }
}

function settle<T>(waiting: Waiting<T>, outcome: Outcome): void {
  if (outcome instanceof Error) waiting.reject(outcome);
  else if (typeof outcome === 'string') waiting.reject(new LedgerError(outcome));
  else waiting.resolve(outcome);
}
