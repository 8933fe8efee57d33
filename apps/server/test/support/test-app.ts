import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app';
import { openDatabase, type Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { parseEnv, type Env } from '../../src/env';
import { createMessenger } from '../../src/messaging/create-messenger';
import type { Messenger } from '../../src/messaging/messenger';

export const testDatabaseKind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  database: Database;
  /** Closes the connection and removes the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: an in-memory PGlite, or (TEST_DATABASE=postgres) a new database
 * in the cluster at DATABASE_URL_TEST, dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'pglite') {
    const database = await openDatabase({ dataDir: 'memory://' });
    return { database, drop: () => database.close() };
  }
  const base = process.env.DATABASE_URL_TEST;
  if (!base)
    throw new Error('TEST_DATABASE=postgres needs DATABASE_URL_TEST (scripts/with-postgres.sh sets it)');
  const name = `hasta_test_${randomUUID().replaceAll('-', '')}`;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  // DROP DATABASE … WITH (FORCE) ends the pool's idle connections: expected here.
  const database = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: '',
    onIdleConnectionError: () => {},
  });
  return {
    database,
    drop: async () => {
      await database.close();
      await withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The palm calls' own rate limits (per client, session and account) raised out of the way, for tests that
 * are not about them and make more palm calls than a real till would (spread into buildTestApp's env).
 */
export const RAISED_PALM_RATE_LIMITS = {
  PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1000000',
  PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE: '1000000',
  PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: '1000000',
} as const;

/**
 * Test servers text from one client address (127.0.0.1) far more than a person would in an hour: the SMS
 * budgets are raised out of the way unless a test sets them (test/sms-pumping.test.ts does).
 */
const RAISED_SMS_BUDGETS = {
  SMS_BUDGET_PER_CLIENT_PER_HOUR: '1000000',
  SMS_BUDGET_GLOBAL_PER_HOUR: '1000000',
} as const;

export function testEnv(overrides: Record<string, string> = {}): Env {
  return parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    // One palm key for every test app, so a test's protected distances are the same on every run: the
    // decision policy is designed to refuse about one registration in a thousand as someone else's palm
    // (FPIR 1e-3, decision 029), and under a fresh random key that would be a different test each run.
    PALM_KEY: 'hasta-server-tests-palm-key-0001-repeatable',
    ...RAISED_SMS_BUDGETS,
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  messenger: Messenger;
  env: Env;
  /** Everything the server logged, one JSON object per line. */
  logs(): string;
  close(): Promise<void>;
}

/**
 * The real server on a fresh migrated database, logging into memory. Call `app.ready()` (or inject) after
 * adding any test-only routes.
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    clock?: () => Date;
    /** A database of the test's own (test/failover.test.ts: a primary and its standby) instead of a fresh one. */
    database?: TestDatabase;
  } = {},
): Promise<TestApp> {
  const env = testEnv(options.env);
  const { database, drop } = options.database ?? (await createTestDatabase());
  await migrate(database);
  const messenger = createMessenger(env, database.db);
  let logged = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  const app = await buildApp({
    env,
    database,
    messenger,
    logger: { level: 'info', stream },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    app,
    database,
    messenger,
    env,
    logs: () => logged,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}
