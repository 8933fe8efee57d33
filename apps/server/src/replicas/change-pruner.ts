import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { currentCursor, pruneChanges, type ChangeCursor } from './change-repository';

/** How often the feed is pruned, and so the least time a finished change stays readable. */
export const PRUNE_EVERY_MS = 5 * 60_000;

/**
 * Deletes old rows of the change feed (migration 029), on one process (the leader; the only one on PGlite):
 * each round deletes the changes of transactions that had finished by the previous round, so every change
 * stays readable for at least one round's interval after it committed (change-feed.ts reads everything
 * again when it has not read for half that long).
 */
export class ChangePruner {
  #noted: ChangeCursor | undefined;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** One round: prunes below the cursor noted by the previous round, then notes where this one stands. */
  async prune(): Promise<number> {
    const noted = this.#noted;
    const now = await currentCursor(this.db);
    const pruned = noted ? await pruneChanges(this.db, noted) : 0;
    this.#noted = now;
    return pruned;
  }

  start(everyMs = PRUNE_EVERY_MS): void {
    if (this.#timer) return;
    // A new leader starts counting again: what it notes now is pruned a full interval later.
    this.#noted = undefined;
    void this.#run();
    this.#timer = setInterval(() => void this.#run(), everyMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round;
  }

  #run(): Promise<unknown> {
    this.#round = this.#round.then(() => this.prune()).catch(this.onError);
    return this.#round;
  }
}
