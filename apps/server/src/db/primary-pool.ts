import pg from 'pg';
import type { DatabaseHost } from './database-url';
import { DatabaseUnavailableError, isConnectionLoss, isReadOnlyRefusal } from './errors';

/**
 * A connection pool over the writable host among several (libpq's target_session_attrs=read-write, which
 * node-postgres does not have). The first connection asks every host, at once, whether it is in recovery
 * or read-only; the first writable one in DATABASE_URL's order becomes the primary and gets a pg.Pool. When
 * that host fails (a connection breaks, or it answers as a standby), the pool is dropped and the next
 * connection searches again, so a promoted standby is found by itself. While no host is writable,
 * connections are refused with DatabaseUnavailableError (503 and Retry-After for the request), and a failed
 * search is reused for `searchIntervalMs` so a burst of requests does not become a burst of probes.
 */

export type HostRole = 'primary' | 'standby' | 'read-only' | 'unreachable';

export interface HostState {
  address: string;
  role: HostRole;
}

export interface DatabaseTopology {
  /** The host writes go to now, null while none is writable. */
  primary: string | null;
  /** Every host of DATABASE_URL, in its order, as last asked. */
  hosts: HostState[];
}

/** What Kysely's PostgresDialect and Database.withSession use of a pooled client. */
export interface PooledClient {
  query: pg.PoolClient['query'];
  release(error?: Error | boolean): void;
}

export interface PrimaryPoolOptions {
  hosts: readonly DatabaseHost[];
  /** The pg.Pool settings of the primary's pool (size, timeouts, type parsers). */
  pool: Omit<pg.PoolConfig, 'connectionString'>;
  /** How long one host may take to connect and answer the probe. */
  probeTimeoutMs: number;
  /** A failed search is reused this long before hosts are asked again. */
  searchIntervalMs: number;
  onIdleConnectionError: (error: Error) => void;
  /** Told when the primary changes (null: lost, no writable host known). */
  onPrimaryChange?: (primary: string | null, previous: string | null) => void;
}

interface Current {
  host: DatabaseHost;
  pool: pg.Pool;
}

/** A connection is tried on the primary, then once more after a fresh search, before the request fails. */
const CONNECT_ATTEMPTS = 2;
const PROBE_SQL = `SELECT pg_is_in_recovery() AS in_recovery, current_setting('transaction_read_only') AS read_only`;

export class PrimaryPool {
  readonly #options: PrimaryPoolOptions;
  #current: Current | null = null;
  #search: Promise<Current> | null = null;
  #failedSearch: { atMs: number; error: DatabaseUnavailableError } | null = null;
  #states: HostState[];
  #probedAtMs = 0;
  #refresh: Promise<void> | null = null;
  #closed = false;

  constructor(options: PrimaryPoolOptions) {
    if (options.hosts.length === 0) throw new Error('PrimaryPool needs at least one host');
    this.#options = options;
    this.#states = options.hosts.map((host) => ({ address: host.address, role: 'unreachable' }));
  }

  /** A client on the primary (Kysely's pool interface). */
  async connect(): Promise<PooledClient> {
    let lastError: unknown;
    for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt += 1) {
      const current = this.#current ?? (await this.#locate());
      try {
        const client = await current.pool.connect();
        return this.#wrap(client, current);
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        lastError = error;
        this.#lose(current);
      }
    }
    throw new DatabaseUnavailableError([
      `the primary failed as it was reached: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
    ]);
  }

  /**
   * The primary's own single-host URL, found if need be: for a connection held outside the pool (LISTEN, a
   * session-level advisory lock), which must be opened again here when it is lost.
   */
  async primaryConnectionString(): Promise<string> {
    return (this.#current ?? (await this.#locate())).host.connectionString;
  }

  async end(): Promise<void> {
    this.#closed = true;
    await this.#search?.catch(() => undefined);
    const current = this.#current;
    this.#current = null;
    await current?.pool.end();
  }

  /**
   * Which host is the primary and what the others are, as of the last search, or asked again when `refresh`
   * (at most once per `searchIntervalMs`, shared by concurrent callers: /api/health is public and unlimited,
   * and must not become a way to open connections on every host).
   */
  async topology(options: { refresh: boolean }): Promise<DatabaseTopology> {
    if (options.refresh && Date.now() - this.#probedAtMs >= this.#options.searchIntervalMs) {
      this.#refresh ??= this.#probeAll()
        .then((states) => {
          const current = this.#current;
          const stillPrimary = states.find((state) => state.address === current?.host.address);
          if (current && stillPrimary?.role !== 'primary') this.#lose(current);
        })
        .finally(() => {
          this.#refresh = null;
        });
      await this.#refresh;
    }
    return {
      primary: this.#current?.host.address ?? null,
      hosts: this.#states.map((state) => ({ ...state })),
    };
  }

  #locate(): Promise<Current> {
    if (this.#closed) return Promise.reject(new Error('the database pool is closed'));
    const failed = this.#failedSearch;
    if (failed && Date.now() - failed.atMs < this.#options.searchIntervalMs)
      return Promise.reject(failed.error);
    this.#search ??= this.#searchPrimary().finally(() => {
      this.#search = null;
    });
    return this.#search;
  }

  async #searchPrimary(): Promise<Current> {
    const states = await this.#probeAll();
    const index = states.findIndex((state) => state.role === 'primary');
    if (index < 0 || this.#closed) {
      const error = new DatabaseUnavailableError(states.map((state) => `${state.address} ${state.role}`));
      this.#failedSearch = { atMs: Date.now(), error };
      throw error;
    }
    this.#failedSearch = null;
    const host = this.#options.hosts[index]!;
    if (this.#current?.host === host) return this.#current;
    const previous = this.#current;
    const current: Current = { host, pool: this.#openPool(host) };
    current.pool.on('error', () => this.#lose(current));
    this.#current = current;
    if (previous) void previous.pool.end().catch(() => undefined);
    this.#options.onPrimaryChange?.(host.address, previous?.host.address ?? null);
    return current;
  }

  async #probeAll(): Promise<HostState[]> {
    const states = await Promise.all(this.#options.hosts.map((host) => this.#probe(host)));
    this.#states = states;
    this.#probedAtMs = Date.now();
    return states;
  }

  async #probe(host: DatabaseHost): Promise<HostState> {
    const timeoutMs = this.#options.probeTimeoutMs;
    const client = new pg.Client({
      connectionString: host.connectionString,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ in_recovery: boolean; read_only: string }>(PROBE_SQL);
      const row = rows[0];
      const role: HostRole = row?.in_recovery
        ? 'standby'
        : row?.read_only === 'off'
          ? 'primary'
          : 'read-only';
      return { address: host.address, role };
    } catch {
      return { address: host.address, role: 'unreachable' };
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  #openPool(host: DatabaseHost): pg.Pool {
    const pool = new pg.Pool({ ...this.#options.pool, connectionString: host.connectionString });
    // A connection that dies while checked out (between the statements of a transaction) emits 'error' on
    // the client itself; unheard, that would end the process. Its queries fail on their own, and the pool
    // discards the dead client when it is released.
    pool.on('connect', (client) => {
      client.on('error', (error) => this.#options.onIdleConnectionError(error));
    });
    pool.on('error', (error) => this.#options.onIdleConnectionError(error));
    return pool;
  }

  /** The primary failed: the next connection searches again. */
  #lose(current: Current): void {
    if (this.#current !== current) return;
    this.#current = null;
    void current.pool.end().catch(() => undefined);
    this.#options.onPrimaryChange?.(null, current.host.address);
  }

  #wrap(client: pg.PoolClient, current: Current): PooledClient {
    const onError = (error: unknown) => {
      if (isConnectionLoss(error) || isReadOnlyRefusal(error)) this.#lose(current);
    };
    client.on('error', onError);
    return {
      query: ((...args: Parameters<pg.PoolClient['query']>) => {
        const result = (client.query as (...a: unknown[]) => unknown)(...args);
        if (result instanceof Promise)
          return result.catch((error: unknown) => {
            onError(error);
            throw error;
          });
        return result;
      }) as pg.PoolClient['query'],
      release: (error) => {
        client.removeListener('error', onError);
        client.release(error);
      },
    };
  }
}
