/**
 * npm run test:crash — kill -9 under load, restart, audit: every acknowledged transfer is there exactly once.
 *
 * For each database (embedded PGlite in a data directory, and a PostgreSQL 15 cluster of its own with the
 * default durability settings), the real server runs as a child process while 32 clients send transfers
 * through `POST /api/transfer`, each with its own Idempotency-Key. A few times over, at a random moment, the
 * server is killed with SIGKILL — and on PostgreSQL, in turn, the database's postmaster too, or the database
 * alone. Everything is restarted, and every request whose answer was lost is sent again with the same key
 * and body, as a client would. At the end the books are audited and each key is checked: answered 200 means
 * exactly one transfer with the id the server gave, every balance equals its opening balance plus the
 * transfers that were answered 200, and nothing else moved.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession } from '../apps/server/src/auth/sessions';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { auditLedger, Ledger, SYSTEM_ACCOUNT_ID, uuidFromText } from '../apps/server/src/ledger/ledger';
import { sql } from 'kysely';

const PEOPLE = 120;
const OPENING_PAISE = 100_000n;
const CLIENTS = 32;
const CYCLES = 3;
const VERIFICATIONS_PER_PERSON = 250;
const REPO = new URL('..', import.meta.url).pathname;
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

interface Person {
  userId: string;
  email: string;
  token: string;
}

interface Sent {
  key: string;
  from: number;
  to: number;
  amountPaise: bigint;
  /** 'lost' when no answer came back (the server died): the client sends it again. */
  state: 'lost' | 'acknowledged' | 'refused';
  transactionId?: string;
  status?: number;
}

function fail(message: string): never {
  console.error(`crash test FAILED: ${message}`);
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function seed(database: Database): Promise<Person[]> {
  await migrate(database);
  const ledger = new Ledger(database.db);
  const people: Person[] = [];
  for (let i = 0; i < PEOPLE; i += 1) {
    const email = `crash-${i}-${randomUUID().slice(0, 8)}@crash.test`;
    const user = await database.db
      .insertInto('users')
      .values({ email, username: `Crash ${i}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const account = await ledger.ensureUserAccount(user.id);
    await ledger.transfer({
      id: randomUUID(),
      debitAccountId: SYSTEM_ACCOUNT_ID,
      creditAccountId: account,
      amountPaise: OPENING_PAISE,
      kind: 'issuance',
    });
    const { token, sessionId } = await createSession(database.db, user.id);
    // Verified OTPs written ahead, as if each sender had just entered a code before each transfer.
    await sql`
      INSERT INTO verifications (token_hash, identifier, purpose, session_id, expires_at)
      SELECT gen_random_uuid()::text, ${email}, 'transfer', ${sessionId}, now() + interval '5 minutes'
      FROM generate_series(1, ${VERIFICATIONS_PER_PERSON}::int)`.execute(database.db);
    people.push({ userId: user.id, email, token });
  }
  return people;
}

function startServer(port: number, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      SEED_DEMO: '0',
      LOG_LEVEL: 'fatal',
      RATE_LIMIT_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitForHealth(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  fail(`the server on port ${port} did not become healthy in ${timeoutMs} ms`);
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function send(port: number, people: Person[], request: Sent): Promise<void> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/transfer`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${people[request.from]!.token}`,
        'content-type': 'application/json',
        'idempotency-key': request.key,
      },
      body: JSON.stringify({
        receiverEmail: people[request.to]!.email,
        amount: Number(request.amountPaise) / 100,
      }),
    });
    const body = (await res.json()) as { transaction?: { id: string } };
    if (res.status === 200) {
      request.state = 'acknowledged';
      request.transactionId = body.transaction!.id;
    } else if (res.status >= 400 && res.status < 500) {
      request.state = 'refused';
      request.status = res.status;
    }
    // A 5xx (the database went away mid-request) leaves the request lost: it is sent again.
  } catch {
    // No answer: the server died with the request in flight.
  }
}

/** Clients send new transfers until `stop` is set; returns every request made. */
async function runLoad(port: number, people: Person[], sent: Sent[], stop: { now: boolean }): Promise<void> {
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; !stop.now; i += 1) {
        const from = (client + i * CLIENTS) % people.length;
        let to = Math.floor(Math.random() * people.length);
        if (to === from) to = (to + 1) % people.length;
        const request: Sent = {
          key: randomUUID(),
          from,
          to,
          amountPaise: BigInt(1 + Math.floor(Math.random() * 500)),
          state: 'lost',
        };
        sent.push(request);
        await send(port, people, request);
        if (request.state === 'lost') await sleep(20);
      }
    }),
  );
}

async function resendLost(port: number, people: Person[], sent: Sent[]): Promise<void> {
  const lost = sent.filter((request) => request.state === 'lost');
  for (let i = 0; i < lost.length; i += CLIENTS)
    await Promise.all(lost.slice(i, i + CLIENTS).map((request) => send(port, people, request)));
  const still = sent.filter((request) => request.state === 'lost').length;
  if (still > 0) fail(`${still} requests still have no answer after a restart`);
  console.log(`  resent ${lost.length} requests whose answer was lost`);
}

async function verify(database: Database, people: Person[], sent: Sent[], name: string): Promise<void> {
  const findings = await auditLedger(database.db);
  if (findings.length > 0) fail(`${name}: the auditor found: ${findings.join('; ')}`);

  const acknowledged = sent.filter((request) => request.state === 'acknowledged');
  for (const request of acknowledged) {
    const expected = uuidFromText(`transfer:${people[request.from]!.userId}:${request.key}`);
    if (request.transactionId !== expected)
      fail(
        `${name}: key ${request.key} was answered with transfer ${request.transactionId}, not ${expected}`,
      );
  }
  const ids = sent.map((request) => uuidFromText(`transfer:${people[request.from]!.userId}:${request.key}`));
  const stored = await sql<{ id: string }>`
    SELECT id FROM ledger_transfers WHERE id = ANY(${ids}::uuid[])`.execute(database.db);
  const storedIds = new Set(stored.rows.map((row) => row.id));
  for (const request of acknowledged) {
    if (!storedIds.has(request.transactionId!))
      fail(`${name}: acknowledged transfer ${request.transactionId} is missing`);
  }
  if (stored.rows.length !== acknowledged.length)
    fail(`${name}: ${stored.rows.length} transfers stored for ${acknowledged.length} acknowledged keys`);
  const all = await database.db
    .selectFrom('ledger_transfers')
    .select(({ fn }) => fn.countAll<string>().as('n'))
    .where('kind', '=', 'transfer')
    .executeTakeFirstOrThrow();
  if (BigInt(all.n) !== BigInt(acknowledged.length))
    fail(`${name}: ${all.n} transfers in the ledger, ${acknowledged.length} acknowledged`);

  // Every balance is its opening balance plus exactly the acknowledged transfers.
  const expected = new Map(people.map((person) => [person.userId, OPENING_PAISE]));
  for (const request of acknowledged) {
    const from = people[request.from]!.userId;
    const to = people[request.to]!.userId;
    expected.set(from, expected.get(from)! - request.amountPaise);
    expected.set(to, expected.get(to)! + request.amountPaise);
  }
  const balances = await database.db
    .selectFrom('ledger_accounts')
    .select(['user_id', 'credits_posted', 'debits_posted'])
    .where('kind', '=', 'user')
    .execute();
  for (const row of balances) {
    const balance = row.credits_posted - row.debits_posted;
    if (balance !== expected.get(row.user_id!))
      fail(
        `${name}: account of ${row.user_id} holds ${balance} paise, expected ${expected.get(row.user_id!)}`,
      );
  }
  const refused = sent.filter((request) => request.state === 'refused');
  console.log(
    `  ${name}: ${sent.length} requests, ${acknowledged.length} acknowledged and present exactly once, ${refused.length} refused (${[...new Set(refused.map((r) => r.status))].join(', ') || 'none'}); the books balance`,
  );
}

type Victim = 'server' | 'server+database' | 'database';

async function crashCycles(options: {
  name: string;
  port: number;
  serverEnv: Record<string, string>;
  people: Person[];
  victims: Victim[];
  killDatabase?: () => Promise<void>;
  startDatabase?: () => Promise<void>;
}): Promise<Sent[]> {
  const sent: Sent[] = [];
  let server = startServer(options.port, options.serverEnv);
  await waitForHealth(options.port);
  for (const [cycle, victim] of options.victims.entries()) {
    const stop = { now: false };
    const load = runLoad(options.port, options.people, sent, stop);
    await sleep(1_000 + Math.floor(Math.random() * 2_000));
    const before = sent.filter((request) => request.state === 'acknowledged').length;
    if (victim !== 'database') await killHard(server);
    if (victim !== 'server') await options.killDatabase!();
    await sleep(300);
    stop.now = true;
    await load;
    console.log(
      `  cycle ${cycle + 1}: killed ${victim} with ${before} transfers acknowledged so far, ${sent.filter((r) => r.state === 'lost').length} answers lost`,
    );
    if (victim !== 'server') await options.startDatabase!();
    if (victim !== 'database') {
      server = startServer(options.port, options.serverEnv);
    }
    await waitForHealth(options.port);
    await resendLost(options.port, options.people, sent);
  }
  await new Promise<void>((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
  return sent;
}

async function crashPglite(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hasta-crash-pglite-'));
  try {
    console.log(`PGlite in ${dataDir}`);
    const seeding = await openDatabase({ dataDir });
    const people = await seed(seeding);
    await seeding.close();
    const sent = await crashCycles({
      name: 'PGlite',
      port: 4390,
      serverEnv: { DATA_DIR: dataDir },
      people,
      victims: Array.from({ length: CYCLES }, () => 'server' as const),
    });
    const database = await openDatabase({ dataDir });
    await verify(database, people, sent, 'PGlite');
    await database.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function asPostgres(args: string[]): ReturnType<typeof spawnSync> {
  const root = process.getuid?.() === 0;
  const [command, ...rest] = root ? ['runuser', '-u', 'postgres', '--', ...args] : args;
  return spawnSync(command!, rest, { encoding: 'utf8' });
}

async function crashPostgres(): Promise<void> {
  if (!existsSync(`${PG_BIN}/initdb`)) fail(`PostgreSQL 15 binaries not found in ${PG_BIN}`);
  const clusterDir = mkdtempSync(join(tmpdir(), 'hasta-crash-pg-'));
  const dataDir = join(clusterDir, 'data');
  const pgPort = 20_000 + Math.floor(Math.random() * 20_000);
  if (process.getuid?.() === 0) {
    const pw = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(clusterDir, Number(pw.stdout.trim()), Number(gid.stdout.trim()));
  }
  const init = asPostgres([
    `${PG_BIN}/initdb`,
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
  ]);
  if (init.status !== 0) fail(`initdb failed: ${init.stderr}`);
  // The default durability settings (fsync, synchronous_commit on): what a real deployment runs.
  const startDatabase = async () => {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const started = asPostgres([
        `${PG_BIN}/pg_ctl`,
        '-D',
        dataDir,
        '-l',
        join(clusterDir, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${pgPort} -k ${clusterDir} -c listen_addresses=127.0.0.1 -c max_connections=100`,
        'start',
      ]);
      if (started.status === 0) return;
      await sleep(500); // the killed postmaster's children may still be on their way out
    }
    fail(`PostgreSQL did not restart: ${readFileSync(join(clusterDir, 'server.log'), 'utf8').slice(-2_000)}`);
  };
  const killDatabase = async () => {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    await sleep(500);
  };
  await startDatabase();
  try {
    const url = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
    console.log(`PostgreSQL 15 on port ${pgPort} (fsync and synchronous_commit on)`);
    const seeding = await openDatabase({ databaseUrl: url, dataDir: '', onIdleConnectionError: () => {} });
    const people = await seed(seeding);
    await seeding.close();
    const sent = await crashCycles({
      name: 'PostgreSQL',
      port: 4391,
      serverEnv: { DATABASE_URL: url },
      people,
      victims: ['server', 'server+database', 'database'],
      killDatabase,
      startDatabase,
    });
    const database = await openDatabase({ databaseUrl: url, dataDir: '', onIdleConnectionError: () => {} });
    await verify(database, people, sent, 'PostgreSQL');
    await database.close();
  } finally {
    asPostgres([`${PG_BIN}/pg_ctl`, '-D', dataDir, '-m', 'immediate', 'stop']);
    rmSync(clusterDir, { recursive: true, force: true });
  }
}

const only = process.env.CRASH_DATABASES;
if (only !== 'postgres') await crashPglite();
if (only !== 'pglite') await crashPostgres();
console.log('crash test passed');
