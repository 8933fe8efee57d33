/**
 * npm run bench:replicas — transfers through the HTTP API with one and with two API server processes on the
 * same PostgreSQL, and what the synchronous standby costs (issue 25, item 5).
 *
 * A throwaway primary with its synchronous standby (scripts/pg-cluster.sh through cluster-parts.ts), API
 * server processes started as `npm run cluster` starts them (DATABASE_URL listing both hosts), and the
 * HTTP load generator of `npm run bench:ledger` (bench/http-load.ts, its own process) sending
 * `POST /api/transfer` straight to the servers' ports in turn (no balancer in the way). Each setting gets a
 * warm-up, a closed run (64 callers, as many transfers as they can: the throughput) and an open run at a fixed
 * 500/s (p50/p99 from each request's scheduled start). The settings, in this order:
 *
 *   1. one API server, synchronous standby on     (the baseline of the replicas' ratios)
 *   2. two API servers, synchronous standby on
 *   3. one API server (restarted), commits not waiting for the standby (synchronous_commit=local: see
 *      setSynchronous; the baseline of the standby's ratio: the standby still streams, no commit waits for it)
 *
 * and each figure is printed beside its baseline of the same run as a ratio. With both servers up, it also
 * measures how long a session signed out on one server is still served by the other (issue 25's 1 s target;
 * apps/server/test/replicas.test.ts checks only that the change arrives). On a shared 2-core machine the
 * second server competes with the first, the database and the load generator for the same cores: the
 * figures say what two processes gain here, not on two machines.
 *
 *   npm run bench:replicas                 10 s at 500/s, 5,000 transfers in the closed run
 *   npm run bench:replicas -- --short      3 s at 500/s, 1,500 transfers (a few seconds a setting)
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { sql } from 'kysely';
import { createSession } from '../apps/server/src/auth/sessions';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { auditLedger, Ledger, SYSTEM_ACCOUNT_ID } from '../apps/server/src/ledger/ledger';
import {
  databaseCommand,
  SERVER_ARGS,
  startChild,
  startDatabase,
  stopChild,
  waitForHealth,
} from '../scripts/cluster-parts';
import type { LoadJob, LoadRequest, LoadResult } from './http-load';

const SHORT = process.argv.includes('--short');
const ACCOUNTS = 300;
const CONCURRENCY = 64;
const RATE_PER_S = 500;
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? (SHORT ? 3 : 10));
const CLOSED_TRANSFERS = Number(process.env.BENCH_HTTP_TRANSFERS ?? (SHORT ? 1_500 : 5_000));
const WARM_UP = SHORT ? 600 : 2_000;

const base = Number(process.env.BENCH_PORT ?? 23_000 + Math.floor(Math.random() * 15_000));
const ports = { primary: base, standby: base + 1, api: [base + 2, base + 3] };
const dir = mkdtempSync(join(tmpdir(), 'hasta-bench-replicas-'));
const jobDir = mkdtempSync(join(tmpdir(), 'hasta-bench-replicas-jobs-'));
const servers: ChildProcess[] = [];
let databaseStarted = false;

function cleanUp(): void {
  for (const child of servers) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  if (databaseStarted) {
    databaseStarted = false;
    databaseCommand('stop', dir);
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(jobDir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));

const SERVER_ENV = {
  HOST: '127.0.0.1',
  COOKIE_SECRET: randomBytes(32).toString('hex'),
  PUBLIC_URL: `http://127.0.0.1:${ports.api[0]}`,
  NODE_ENV: 'test',
  SEED_DEMO: '0',
  LOG_LEVEL: 'error',
  PALM_KEY: 'hasta-bench-replicas-palm-key-0001-repeatable',
  RATE_LIMIT_PER_MINUTE: '100000000',
};

const execFileAsync = promisify(execFile);
async function load(job: LoadJob): Promise<LoadResult> {
  const file = join(jobDir, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(job));
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', new URL('./http-load.ts', import.meta.url).pathname, file],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as LoadResult;
}

interface Sender {
  email: string;
  token: string;
  sessionId: string;
}

/** Fresh transfer verifications for every sender (as bench/ledger.ts: as if each had just entered a code). */
async function verify(database: Database, senders: Sender[], perSender: number): Promise<void> {
  await sql`
    INSERT INTO verifications (token_hash, identifier, purpose, session_id, expires_at)
    SELECT gen_random_uuid()::text, s.email, 'transfer', s.session_id, now() + interval '5 minutes'
    FROM unnest(${senders.map((s) => s.sessionId)}::uuid[], ${senders.map((s) => s.email)}::text[]) AS s(session_id, email),
         generate_series(1, ${perSender}::int)`.execute(database.db);
}

function transferRequests(senders: Sender[], count: number): LoadRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const from = senders[i % senders.length]!;
    let to = senders[Math.floor(Math.random() * senders.length)]!.email;
    if (to === from.email) to = senders[(i + 1) % senders.length]!.email;
    return {
      path: '/api/transfer',
      token: from.token,
      body: JSON.stringify({ receiverEmail: to, amount: 1 }),
      idempotencyKey: randomUUID(),
    };
  });
}

async function startServer(i: number, databaseUrl: string): Promise<void> {
  const child = startChild(`api-${i + 1}`, process.execPath, SERVER_ARGS, {
    env: { ...SERVER_ENV, DATABASE_URL: databaseUrl, PORT: String(ports.api[i]) },
    onLine: null,
  });
  servers.push(child);
  await waitForHealth(`http://127.0.0.1:${ports.api[i]}/api/health`, 120_000);
}

interface Figures {
  name: string;
  closed: LoadResult;
  open: LoadResult;
}

async function measure(
  name: string,
  database: Database,
  senders: Sender[],
  apiPorts: number[],
): Promise<Figures> {
  const job = async (mode: 'closed' | 'open', count: number): Promise<LoadResult> => {
    await verify(database, senders, Math.ceil(count / senders.length) + 1);
    return load({
      port: apiPorts[0]!,
      ports: apiPorts,
      mode,
      concurrency: CONCURRENCY,
      count,
      rate_per_s: mode === 'open' ? RATE_PER_S : 0,
      duration_s: mode === 'open' ? OPEN_SECONDS : 0,
      requests: transferRequests(senders, count),
    });
  };
  await job('closed', WARM_UP);
  const closed = await job('closed', CLOSED_TRANSFERS);
  const open = await job('open', RATE_PER_S * OPEN_SECONDS);
  return { name, closed, open };
}

/** Issue 25: a change on one replica reaches the others within 1 s. The tests check only that it arrives. */
const PROPAGATION_TARGET_MS = 1_000;
const PROPAGATION_SAMPLES = SHORT ? 20 : 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/**
 * Signs out on server A (POST /api/auth/logout) a session server B has just served and so holds in its session
 * cache, then asks B every 2 ms until it refuses the session: the time from A's answer to B's refusal, each
 * sample a new session.
 */
async function measurePropagation(database: Database, userId: string): Promise<number[]> {
  const [onA, onB] = ports.api.map((port) => `http://127.0.0.1:${port}`) as [string, string];
  const samples: number[] = [];
  for (let i = 0; i < PROPAGATION_SAMPLES; i += 1) {
    const { token } = await createSession(database.db, userId);
    const headers = { authorization: `Bearer ${token}` };
    const seenOnB = await fetch(`${onB}/api/auth/session`, { headers });
    if (seenOnB.status !== 200) throw new Error(`B did not serve a new session: ${seenOnB.status}`);
    const out = await fetch(`${onA}/api/auth/logout`, { method: 'POST', headers });
    if (out.status !== 200) throw new Error(`A did not sign out: ${out.status}`);
    const since = performance.now();
    for (;;) {
      const status = (await fetch(`${onB}/api/auth/session`, { headers })).status;
      if (status === 401) break;
      if (performance.now() - since > 30_000)
        throw new Error('B still serves a session A signed out 30 s ago');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    samples.push(performance.now() - since);
  }
  return samples;
}

async function syncState(admin: pg.Client): Promise<string> {
  const names = (await admin.query<{ s: string }>(`SELECT current_setting('synchronous_standby_names') AS s`))
    .rows[0]!.s;
  const state = (await admin.query<{ sync_state: string }>(`SELECT sync_state FROM pg_stat_replication`)).rows
    .map((r) => r.sync_state)
    .join(',');
  return `synchronous_standby_names='${names}', standby ${state || 'not streaming'}`;
}

/**
 * Commits wait for the standby (the cluster's setting) or for the primary's own disk only. pg-cluster.sh sets
 * synchronous_standby_names on the server's command line, which ALTER SYSTEM cannot override, so "without"
 * is synchronous_commit=local for the database's new connections: a commit then waits for the primary's
 * flush alone, as with an empty synchronous_standby_names (the standby keeps streaming either way).
 */
async function setSynchronous(admin: pg.Client, on: boolean): Promise<string> {
  await admin.query(
    on
      ? `ALTER DATABASE postgres RESET synchronous_commit`
      : `ALTER DATABASE postgres SET synchronous_commit = 'local'`,
  );
  const fresh = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${ports.primary}/postgres`,
  });
  await fresh.connect();
  const value = (await fresh.query<{ s: string }>(`SELECT current_setting('synchronous_commit') AS s`))
    .rows[0]!.s;
  await fresh.end();
  return `synchronous_commit=${value} for new connections`;
}

function failures(result: LoadResult): string {
  const failed = Object.entries(result.failed);
  return failed.length === 0 ? '' : ` (failed: ${failed.map(([s, n]) => `${n}x${s}`).join(', ')})`;
}

// ----------------------------------------------------------------------------------------------- run

console.log(
  `transfers among ${ACCOUNTS} accounts through the HTTP API on PostgreSQL 15 (primary + streaming standby, ` +
    `fsync on): per setting ${WARM_UP} warm-up, ${CLOSED_TRANSFERS} with ${CONCURRENCY} callers, then ` +
    `${RATE_PER_S}/s for ${OPEN_SECONDS} s${SHORT ? ' (--short)' : ''}`,
);
const databaseUrl = startDatabase(dir, ports.primary, ports.standby);
databaseStarted = true;
const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${ports.primary}/postgres` });
await admin.connect();
const database = await openDatabase({ databaseUrl, dataDir: '', onIdleConnectionError: () => {} });
await migrate(database);
const ledger = new Ledger(database.db);
const users = await database.db
  .insertInto('users')
  .values(
    Array.from({ length: ACCOUNTS }, (_, i) => ({
      email: `replica-${i}-${randomUUID()}@bench.test`,
      username: `Replica ${i}`,
    })),
  )
  .returning(['id', 'email'])
  .execute();
const senders: Sender[] = [];
for (const user of users) {
  const account = await ledger.ensureUserAccount(user.id);
  await ledger.transfer({
    id: randomUUID(),
    debitAccountId: SYSTEM_ACCOUNT_ID,
    creditAccountId: account,
    amountPaise: 10_000_000n,
    kind: 'issuance',
  });
  const { token, sessionId } = await createSession(database.db, user.id);
  senders.push({ email: user.email!, token, sessionId });
}
await startServer(0, databaseUrl);
await startServer(1, databaseUrl);

const results: Figures[] = [];
console.log(`1. ${await syncState(admin)}`);
results.push(await measure('1 API server, sync standby', database, senders, [ports.api[0]!]));
results.push(await measure('2 API servers, sync standby', database, senders, ports.api));
const propagation = await measurePropagation(database, users[0]!.id);
const local = await setSynchronous(admin, false);
// The first API server again, so its connections are new ones and take the database's setting.
await stopChild(servers.shift()!, 5_000);
await startServer(0, databaseUrl);
console.log(`3. ${await syncState(admin)}, ${local} (the API server restarted)`);
results.push(await measure('1 API server, no sync wait', database, senders, [ports.api[0]!]));
await setSynchronous(admin, true);

for (const child of servers) await stopChild(child, 5_000);
const findings = await auditLedger(database.db);
await database.close();
await admin.end();

const [one, two, noStandby] = results as [Figures, Figures, Figures];
const ratio = (a: number, b: number) => `x${(a / b).toFixed(2)}`;
for (const figures of results) {
  const { closed, open } = figures;
  const against =
    figures === two ? [one, 'one server'] : figures === one ? [noStandby, 'no sync wait'] : undefined;
  const vs = against
    ? `   vs ${against[1] as string}: throughput ${ratio(closed.rate_per_s, (against[0] as Figures).closed.rate_per_s)}, ` +
      `p99 at ${RATE_PER_S}/s ${ratio(open.latency_ms_p99, (against[0] as Figures).open.latency_ms_p99)}`
    : '   (baseline of the standby ratio)';
  console.log(
    `${figures.name.padEnd(30)} throughput ${closed.rate_per_s.toFixed(0).padStart(5)}/s${failures(closed)}` +
      `   at ${RATE_PER_S}/s: ${open.rate_per_s.toFixed(0)}/s served, p50 ${open.latency_ms_p50.toFixed(1)} ms, ` +
      `p99 ${open.latency_ms_p99.toFixed(1)} ms${failures(open)}` +
      (figures === one ? '   (baseline of the replicas ratio)\n' + ''.padEnd(30) : '') +
      vs,
  );
}
console.log(
  `session revocation on A refused on B, ${propagation.length} sessions: p50 ${percentile(propagation, 0.5).toFixed(1)} ms, ` +
    `p95 ${percentile(propagation, 0.95).toFixed(1)} ms, max ${Math.max(...propagation).toFixed(1)} ms ` +
    `(target: within ${PROPAGATION_TARGET_MS} ms: ${Math.max(...propagation) <= PROPAGATION_TARGET_MS ? 'met' : 'NOT met'})`,
);
console.log(`audit: ${findings.length === 0 ? 'the books balance' : findings.join('; ')}`);
if (findings.length > 0) process.exitCode = 1;
