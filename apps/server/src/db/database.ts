import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { databaseHosts } from './database-url';
import { PgliteStatements } from './pglite-statements';
import { PrimaryPool, type DatabaseTopology } from './primary-pool';
import type { Schema } from './schema';

export type DatabaseKind = 'pglite' | 'postgres';

/** One connection held for a sequence of statements (migrations, locks). */
export interface Session {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Schema>;
  withSession<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /**
   * With several PostgreSQL hosts in DATABASE_URL: which one is the primary and what the others are
   * (`refresh` asks every host again). Null for PGlite and for a single host.
   */
  topology(options: { refresh: boolean }): Promise<DatabaseTopology | null>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const POSTGRES_POOL_SIZE = 10;
const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;
const POSTGRES_STATEMENT_TIMEOUT_MS = 30_000;
/** How long one host may take to say whether it is writable, when the primary is searched for. */
const POSTGRES_PROBE_TIMEOUT_MS = 2_000;
/** While no host is writable, hosts are asked again at most this often (requests meanwhile get 503). */
const POSTGRES_SEARCH_INTERVAL_MS = 250;

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /**
   * A pooled connection died (database restart, admin termination). The pool drops it and opens another;
   * queries in flight report their own errors. Defaults to one line on stderr.
   */
  onIdleConnectionError?: (error: Error) => void;
  /** Told when the primary among DATABASE_URL's hosts changes (null: none writable). Defaults to stderr. */
  onPrimaryChange?: (primary: string | null, previous: string | null) => void;
}): Promise<Database> {
  return options.databaseUrl === undefined
    ? openPglite(options.dataDir)
    : openPostgres(
        options.databaseUrl,
        options.onIdleConnectionError ?? logIdleConnectionError,
        options.onPrimaryChange ?? logPrimaryChange,
      );
}

function logPrimaryChange(primary: string | null, previous: string | null): void {
  if (primary === null) console.error(`PostgreSQL primary ${previous ?? ''} lost; searching the hosts again`);
  else if (previous !== null) console.error(`PostgreSQL primary is now ${primary} (was ${previous})`);
}

function logIdleConnectionError(error: Error): void {
  console.error(`PostgreSQL connection lost while idle: ${error.message}`);
}

function openPostgres(
  connectionString: string,
  onIdleConnectionError: (error: Error) => void,
  onPrimaryChange: (primary: string | null, previous: string | null) => void,
): Database {
  const hosts = databaseHosts(connectionString);
  const pool = new PrimaryPool({
    hosts,
    pool: {
      max: POSTGRES_POOL_SIZE,
      connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
      statement_timeout: POSTGRES_STATEMENT_TIMEOUT_MS,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID
            ? (value: string) => BigInt(value)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    },
    probeTimeoutMs: POSTGRES_PROBE_TIMEOUT_MS,
    searchIntervalMs: POSTGRES_SEARCH_INTERVAL_MS,
    onIdleConnectionError,
    // One host is the primary by definition: its connections breaking is the idle-error's business.
    ...(hosts.length > 1 ? { onPrimaryChange } : {}),
  });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }) });
  return {
    kind: 'postgres',
    db,
    async withSession(work) {
      const client = await pool.connect();
      try {
        return await work({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async <Row>(sql: string, params: readonly unknown[] = []) =>
            (await client.query(sql, [...params])).rows as Row[],
        });
      } finally {
        client.release();
      }
    },
    topology: async (options) => (hosts.length > 1 ? pool.topology(options) : null),
    close: () => db.destroy(),
  };
}

/**
 * PGlite is one connection. A small pool stand-in hands it to one borrower at a time, so a transaction opened
 * by one request never interleaves with another request's statements.
 */
async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(inMemory ? dataDir : `file://${dataDir}`, {
    parsers: { [INT8_OID]: (value: string) => BigInt(value) },
    // The user directory's search index (migration 007); PostgreSQL ships it in contrib.
    extensions: { pg_trgm },
    // A new WAL segment is not filled with zeroes first: that wrote 16 MB on the server's thread, 30-60 ms
    // during which every request waited (decision 019). Unwritten parts of a file read as zeroes all the same.
    startParams: [...PGlite.defaultStartParams, '-c', 'wal_init_zero=off'],
  });
  const gate = new Gate();
  const statements = new PgliteStatements(lite);

  const client = {
    async query(sql: string, params: unknown[] = []) {
      const result = await statements.query(sql, params);
      return {
        command: commandOf(sql),
        rowCount: result.affectedRows ?? result.rows.length,
        rows: result.rows,
      };
    },
    release: () => gate.release(),
  };
  const pool = {
    async connect() {
      await gate.acquire();
      return client;
    },
    async end() {
      await gate.acquire();
      await lite.close();
    },
  };
  const db = new Kysely<Schema>({
    dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }),
  });
  return {
    kind: 'pglite',
    db,
    async withSession(work) {
      await gate.acquire();
      try {
        return await work({
          exec: async (sql) => {
            await lite.exec(sql);
          },
          query: async <Row>(sql: string, params: readonly unknown[] = []) =>
            (await lite.query<Row>(sql, [...params])).rows,
        });
      } finally {
        // The work may have changed the schema (migrations) under the prepared statements.
        statements.forget();
        gate.release();
      }
    },
    topology: () => Promise.resolve(null),
    close: () => db.destroy(),
  };
}

/** The statement's command tag, as node-postgres reports it (Kysely reads it for affected-row counts). */
function commandOf(sql: string): string {
  const first = (/^\s*([a-z]+)/i.exec(sql)?.[1] ?? '').toUpperCase();
  if (first !== 'WITH') return first;
  return (/\b(insert|update|delete|merge)\b/i.exec(sql)?.[1] ?? 'SELECT').toUpperCase();
}

/** A FIFO mutex. */
class Gate {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
