import type { DedicatedConnection } from '../db/database';

/** Any fixed number, other than the log sequencer's (7_340_022): the lock whose holder leads. */
export const LEADER_LOCK_KEY = 7_340_025;
/** A replica that does not lead tries to this often; the leader checks its connection as often. */
export const LEADERSHIP_RETRY_MS = 1_000;
/** A leader whose connection does not answer a check within this long steps down. */
const HEARTBEAT_TIMEOUT_MS = 3_000;
/**
 * A replica whose lock connection failed waits this many tries before trying again, so a healthy replica
 * takes over first rather than the one whose connection just broke.
 */
const TRIES_SKIPPED_AFTER_FAILURE = 2;

/** What only the leader runs: started when this replica is elected, stopped when it steps down. */
export interface LeaderWork {
  lead(): void | Promise<void>;
  follow(): Promise<void>;
}

export interface LeadershipOptions {
  retryEveryMs?: number;
  onError: (error: unknown, what: string) => void;
  /** Told when this replica starts or stops leading. */
  onChange?: (leading: boolean) => void;
}

/**
 * One leader among the server processes sharing a PostgreSQL database (issue 25), for the work that must
 * run once (the ledger's expiry rounds, the anchor worker): the replica holding a session-level advisory
 * lock on a dedicated connection leads. The lock lives as long as that connection: when the leader's process
 * dies or its connection is lost, PostgreSQL frees it and another replica, trying every second, takes it.
 * A leader that loses its connection (or whose connection stops answering) stops the work at once.
 */
export class Leadership {
  #connection: DedicatedConnection | null = null;
  #leading = false;
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();
  #skipTries = 0;
  readonly #retryEveryMs: number;

  constructor(
    private readonly openConnection: () => Promise<DedicatedConnection>,
    private readonly work: LeaderWork,
    private readonly options: LeadershipOptions,
  ) {
    this.#retryEveryMs = options.retryEveryMs ?? LEADERSHIP_RETRY_MS;
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  /** The server process holding this replica's lock while it leads, else null. */
  get lockPid(): number | null {
    return this.#leading ? (this.#connection?.pid ?? null) : null;
  }

  /** Tries to lead at once, then every `retryEveryMs` (the leader checks its connection as often). */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#timer = setInterval(() => void this.#schedule(), this.#retryEveryMs);
    this.#timer.unref();
    await this.#schedule();
  }

  /** Stops the work if leading and closes the connection, which frees the lock for another replica. */
  async stop(): Promise<void> {
    this.#running = false;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#tick;
    await this.#stepDown();
  }

  #schedule(): Promise<void> {
    this.#tick = this.#tick.then(() => (this.#running ? this.#round() : undefined));
    return this.#tick;
  }

  async #round(): Promise<void> {
    try {
      if (this.#leading) await this.#checkConnection();
      else if (this.#skipTries > 0) this.#skipTries -= 1;
      else await this.#tryToLead();
    } catch (error) {
      this.options.onError(error, this.#leading ? 'leader’s lock connection failed' : 'trying to lead');
      await this.#stepDown({ failed: true });
    }
  }

  async #tryToLead(): Promise<void> {
    const connection = this.#connection ?? (await this.#open());
    const [row] = await connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      LEADER_LOCK_KEY,
    ]);
    if (!row?.locked || !this.#running || this.#connection !== connection) return;
    this.#leading = true;
    this.options.onChange?.(true);
    await this.work.lead();
  }

  async #checkConnection(): Promise<void> {
    const connection = this.#connection;
    if (!connection) throw new Error('the leader has no lock connection');
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      connection.query('SELECT 1'),
      new Promise((_, reject) => {
        timeout = setTimeout(
          () => reject(new Error(`lock connection silent for ${HEARTBEAT_TIMEOUT_MS} ms`)),
          HEARTBEAT_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timeout));
  }

  async #open(): Promise<DedicatedConnection> {
    const connection = await this.openConnection();
    connection.onLost((error) => {
      if (this.#connection !== connection) return;
      this.options.onError(error, 'lock connection lost');
      void this.#stepDown({ failed: true });
    });
    this.#connection = connection;
    return connection;
  }

  /**
   * Stops the work if leading (the lock may be gone already) and drops the connection; after a failure, the
   * next tries are left to the other replicas.
   */
  async #stepDown(options: { failed: boolean } = { failed: false }): Promise<void> {
    if (options.failed) this.#skipTries = TRIES_SKIPPED_AFTER_FAILURE;
    const connection = this.#connection;
    this.#connection = null;
    const wasLeading = this.#leading;
    this.#leading = false;
    if (wasLeading) {
      this.options.onChange?.(false);
      try {
        await this.work.follow();
      } catch (error) {
        this.options.onError(error, 'stopping the leader’s work');
      }
    }
    await connection?.close();
  }
}
