import type { Kysely } from 'kysely';
import type { DedicatedConnection } from '../db/database';
import type { Schema } from '../db/schema';
import { PRUNE_EVERY_MS } from './change-pruner';
import {
  CHANGES_CHANNEL,
  currentCursor,
  readChanges,
  type Change,
  type ChangeCursor,
} from './change-repository';

/** What a replica does with the changes other processes (and itself) made. Each must be idempotent. */
export interface ChangeHandlers {
  /** The palms (templates, consents) of these users changed: read them again. */
  palms(userIds: readonly string[]): Promise<void>;
  /** Sessions of these users ended, or what a session says of its user changed: forget cached ones. */
  sessions(userIds: readonly string[]): void;
  /**
   * Changes may have been missed (the feed was read too long ago, or too much changed): read every palm
   * again and forget every cached session.
   */
  everything(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** A catch-up read this often whatever the notices say, so a lost notice costs at most this long. */
  catchUpEveryMs?: number;
  /** After the listening connection is lost, the next try this much later. */
  reconnectAfterMs?: number;
  /** Most changes handled one by one in a read; past it, everything is read again. */
  maxChangesPerRead?: number;
  /**
   * A replica that has not read the feed for this long may have missed changes since pruned (the leader
   * prunes only what was finished a full PRUNE_EVERY_MS earlier, change-pruner.ts): it reads everything again.
   */
  rereadAllAfterMs?: number;
  /** A failed read or a lost connection (the feed retries by itself). */
  onError: (error: unknown, what: string) => void;
  /** Monotonic milliseconds; tests may move it. */
  now?: () => number;
}

export const CATCH_UP_EVERY_MS = 1_000;
const RECONNECT_AFTER_MS = 1_000;
const MAX_CHANGES_PER_READ = 1_000;
/** Half the time a change stays readable: a margin for clocks and slow rounds. */
const REREAD_ALL_AFTER_MS = PRUNE_EVERY_MS / 2;
/** Reads in a row while notices keep arriving during reads. */
const MAX_READS_IN_A_ROW = 100;

/**
 * Keeps this process's in-memory projections current with the database when several server processes share
 * it (issue 25). Triggers write every palm or session change to `replica_changes` in the changing
 * transaction, and NOTIFY on commit; the feed LISTENs on a dedicated connection and reads what changed from
 * its cursor on each notice, on a timer, and whenever it (re)connects, so a missed notice is never a missed
 * change. Reads never overlap; handlers see each change once or more, never out of the database's truth.
 */
export class ChangeFeed {
  #cursor: ChangeCursor | undefined;
  #lastReadAt = Number.NEGATIVE_INFINITY;
  #running = false;
  #listener: DedicatedConnection | null = null;
  #connecting: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | null = null;
  #readAgain = false;
  readonly #options: Required<Omit<ChangeFeedOptions, 'onError' | 'now'>>;
  readonly #now: () => number;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly openConnection: () => Promise<DedicatedConnection>,
    private readonly handlers: ChangeHandlers,
    private readonly options: ChangeFeedOptions,
  ) {
    this.#options = {
      catchUpEveryMs: options.catchUpEveryMs ?? CATCH_UP_EVERY_MS,
      reconnectAfterMs: options.reconnectAfterMs ?? RECONNECT_AFTER_MS,
      maxChangesPerRead: options.maxChangesPerRead ?? MAX_CHANGES_PER_READ,
      rereadAllAfterMs: options.rereadAllAfterMs ?? REREAD_ALL_AFTER_MS,
    };
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * Takes the feed's first position: call it BEFORE the projections are first built, so what commits while
   * they are read is read again from here.
   */
  async init(): Promise<void> {
    this.#cursor = await currentCursor(this.db);
    this.#lastReadAt = this.#now();
  }

  /** The listening connection's server process, or null while there is none. */
  get listenerPid(): number | null {
    return this.#listener?.pid ?? null;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Listens, reads what changed since the last read (or init), and keeps reading on notices and a timer. */
  async start(): Promise<void> {
    if (this.#running) return;
    if (!this.#cursor) await this.init();
    this.#running = true;
    this.#timer = setInterval(() => this.#catchUpInBackground(), this.#options.catchUpEveryMs);
    this.#timer.unref();
    await this.#connect();
    await this.catchUp();
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearInterval(this.#timer);
    clearTimeout(this.#reconnectTimer);
    this.#timer = undefined;
    this.#reconnectTimer = undefined;
    await this.#connecting;
    const listener = this.#listener;
    this.#listener = null;
    await listener?.close();
    await this.#reading?.catch(() => undefined);
  }

  /**
   * Reads and handles every change committed before this call (and any notice arriving meanwhile). Reads
   * never overlap: a call during a read makes that read go round once more.
   */
  catchUp(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true;
      return this.#reading;
    }
    const reading = (async () => {
      try {
        let reads = 0;
        do {
          this.#readAgain = false;
          await this.#readOnce();
          reads += 1;
        } while (this.#readAgain && reads < MAX_READS_IN_A_ROW);
      } finally {
        this.#reading = null;
      }
    })();
    this.#reading = reading;
    return reading;
  }

  #catchUpInBackground(): void {
    if (!this.#running) return;
    this.catchUp().catch((error: unknown) => this.options.onError(error, 'reading the change feed'));
  }

  async #readOnce(): Promise<void> {
    const startedAt = this.#now();
    if (!this.#cursor || startedAt - this.#lastReadAt > this.#options.rereadAllAfterMs) {
      await this.#readEverything(startedAt);
      return;
    }
    const limit = this.#options.maxChangesPerRead;
    const { changes, next } = await readChanges(this.db, this.#cursor, limit + 1);
    if (changes.length > limit) {
      await this.#readEverything(startedAt);
      return;
    }
    const sessions = usersOf(changes, 'session');
    if (sessions.length > 0) this.handlers.sessions(sessions);
    const palms = usersOf(changes, 'palm');
    if (palms.length > 0) await this.handlers.palms(palms);
    this.#cursor = next;
    this.#lastReadAt = startedAt;
  }

  async #readEverything(startedAt: number): Promise<void> {
    // Reading everything after this snapshot covers every change visible in it.
    const cursor = await currentCursor(this.db);
    await this.handlers.everything();
    this.#cursor = cursor;
    this.#lastReadAt = startedAt;
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#openListener().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #openListener(): Promise<void> {
    let connection: DedicatedConnection;
    try {
      connection = await this.openConnection();
    } catch (error) {
      this.options.onError(error, 'connecting to listen for changes');
      this.#reconnectLater();
      return;
    }
    connection.onNotification(() => this.#catchUpInBackground());
    connection.onLost((error) => {
      if (this.#listener !== connection) return;
      this.#listener = null;
      this.options.onError(error, 'the change feed’s listening connection was lost');
      void connection.close();
      this.#reconnectLater();
    });
    try {
      await connection.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      await connection.close();
      this.options.onError(error, 'listening for changes');
      this.#reconnectLater();
      return;
    }
    if (!this.#running) {
      await connection.close();
      return;
    }
    this.#listener = connection;
    // What committed while nobody listened.
    this.#catchUpInBackground();
  }

  #reconnectLater(): void {
    if (!this.#running || this.#reconnectTimer) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#running && !this.#listener) void this.#connect();
    }, this.#options.reconnectAfterMs);
    this.#reconnectTimer.unref();
  }
}

function usersOf(changes: readonly Change[], kind: Change['kind']): string[] {
  return [...new Set(changes.filter((change) => change.kind === kind).map((change) => change.userId))];
}
