import { LedgerError, type TransferKind } from '@hasta/ledger/rules';
import type { Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { uuidFromText, type Ledger, type TransferRecord } from './ledger';

/** Most pending transfers one round voids; the rest wait for the next round. */
export const EXPIRY_BATCH = 100;

/** What a kind of pending transfer needs when it expires (a withdrawal's own row, a notice to its owner). */
export interface ExpiryHandler {
  /** Inside the void's transaction: records that must change with it. */
  inTransaction?: (trx: Transaction<Schema>, pending: TransferRecord) => Promise<void>;
  /** After the void committed: notices. A failure here is logged, the void stays. */
  afterCommit?: (pending: TransferRecord) => Promise<void>;
}

/** The void that expires a pending transfer has an id made from the pending transfer's, so it happens once. */
export function expiryId(pendingId: string): string {
  return uuidFromText(`expiry:${pendingId}`);
}

/**
 * Two-phase transfers have a timeout: a pending transfer that nobody posted or voided by its `timeout_at` is
 * voided here, so the money it reserved can be spent again. A round voids at most EXPIRY_BATCH of them, the
 * longest overdue first; each void is an ordinary ledger resolution (locks, checks, the auditor's sums), and
 * a pending transfer resolved meanwhile by someone else is skipped.
 */
export class PendingExpiry {
  readonly #handlers = new Map<TransferKind, ExpiryHandler>();
  readonly #roundTasks: ((now: Date) => Promise<void>)[] = [];
  #timer: NodeJS.Timeout | null = null;
  /** The rounds so far, chained: a new round starts after the previous one ended. */
  #rounds: Promise<void> = Promise.resolve();
  #queued = 0;

  constructor(
    private readonly ledger: Ledger,
    /** Logs a failed void (its pending transfer's id) or a failed round (null); the next round tries again. */
    private readonly onError: (error: unknown, pendingId: string | null) => void,
  ) {}

  on(kind: TransferKind, handler: ExpiryHandler): void {
    this.#handlers.set(kind, handler);
  }

  /**
   * Work done after each round's voids (sending again what could not be sent). A failure is reported to
   * onError and does not stop the round.
   */
  eachRound(task: (now: Date) => Promise<void>): void {
    this.#roundTasks.push(task);
  }

  /**
   * Voids one pending transfer past its timeout. False when this call did not write the void: the transfer
   * was posted or voided by someone else, or another round expired it first (the ledger then answers the
   * stored void, and its notices were that round's to send).
   */
  async expire(pending: TransferRecord): Promise<boolean> {
    const handler = this.#handlers.get(pending.kind);
    let written = false;
    try {
      await this.ledger.resolve({
        id: expiryId(pending.id),
        pendingId: pending.id,
        action: 'void',
        // Runs only when this call writes the void, in its transaction; never for a replay.
        onRecorded: async (trx, voided) => {
          await handler?.inTransaction?.(trx, voided);
          written = true;
        },
      });
    } catch (error) {
      if (error instanceof LedgerError && error.code === 'pending_resolved') return false;
      throw error;
    }
    if (!written) return false;
    if (handler?.afterCommit) {
      try {
        await handler.afterCommit(pending);
      } catch (error) {
        this.onError(error, pending.id);
      }
    }
    return true;
  }

  /**
   * Voids pending transfer `pendingId` now, for someone who came to post it and found it past its timeout (a
   * late settle, a late code), rather than at the next round.
   */
  async expireNow(pendingId: string): Promise<boolean> {
    const pending = await this.ledger.findTransfer(pendingId);
    return pending === undefined ? false : this.expire(pending);
  }

  /**
   * One round: the ids it voided. Rounds run one after another, never at the same time. `now` defaults to the
   * ledger's clock.
   */
  runOnce(now: Date = this.ledger.now()): Promise<string[]> {
    this.#queued += 1;
    const round = this.#rounds.then(() => this.#expireDue(now));
    this.#rounds = round.then(
      () => {
        this.#queued -= 1;
      },
      () => {
        this.#queued -= 1;
      },
    );
    return round;
  }

  async #expireDue(now: Date): Promise<string[]> {
    const voided: string[] = [];
    for (const pending of await this.ledger.expiredPending(EXPIRY_BATCH, now)) {
      try {
        if (await this.expire(pending)) voided.push(pending.id);
      } catch (error) {
        this.onError(error, pending.id);
      }
    }
    for (const task of this.#roundTasks) {
      try {
        await task(now);
      } catch (error) {
        this.onError(error, null);
      }
    }
    return voided;
  }

  /** Whether the rounds run on a timer here (with several server processes, on the leader only). */
  get running(): boolean {
    return this.#timer !== null;
  }

  start(intervalMs: number): void {
    if (this.#timer) return;
    // A round still running (a slow database) is not joined by another from the timer.
    this.#timer = setInterval(() => {
      if (this.#queued === 0) this.runOnce().catch((error: unknown) => this.onError(error, null));
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#rounds;
  }
}
