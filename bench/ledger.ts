/**
 * npm run bench:ledger — transfers per second on PGlite (its data in a directory on disk, as the server keeps
 * it in DATA_DIR) and (with DATABASE_URL_TEST, set by
 * scripts/with-postgres.sh) PostgreSQL, with uniform traffic among 1,000 accounts and with a hot merchant
 * taking half the transfers:
 * - through the HTTP API: `POST /api/transfer` on the real server (bearer sessions, each transfer spending a
 *   verified OTP — the verifications are written beforehand, as if each sender had just entered a code), driven
 *   by a separate load-generator process: the throughput with 64 callers, and p50/p99 at a fixed 500/s;
 * - in process, straight into the ledger;
 * - the raw-SQL baseline: the same two counter updates and inserts per transfer, no rules, no idempotency.
 * Every figure is printed beside the baseline of the same run, as a ratio. The requests of the fixed-rate run
 * slower than the 25 ms target are lined up with what the server was doing meanwhile (a garbage collection, an
 * event-loop stall and whether its main thread was on a CPU or waiting for one, a slow batch statement).
 * BENCH_PROFILE=<path prefix> also writes a CPU profile of the server during each fixed-rate run.
 * Then (with PostgreSQL) two API server processes on one PostgreSQL and the synchronous standby's cost:
 * bench/replicas.ts, also on its own as `npm run bench:replicas` (BENCH_REPLICAS=full|0).
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import inspector from 'node:inspector';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { createSession } from '../apps/server/src/auth/sessions';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { parseEnv } from '../apps/server/src/env';
import { auditLedger, Ledger, SYSTEM_ACCOUNT_ID } from '../apps/server/src/ledger/ledger';
import { createMessenger } from '../apps/server/src/messaging/create-messenger';
import type { LoadJob, LoadRequest, LoadResult, SlowRequest } from './http-load';

const ACCOUNTS = 1_000;
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 3_000);
const HTTP_TRANSFERS = Number(process.env.BENCH_HTTP_TRANSFERS ?? 10_000);
const CONCURRENCY = 64;
const OPEN_RATE_PER_S = 500;
const OPEN_DURATION_S = Number(process.env.BENCH_OPEN_SECONDS ?? 10);

interface Sender {
  email: string;
  token: string;
  sessionId: string;
}

async function setUp(
  database: Database,
): Promise<{ ledger: Ledger; accounts: string[]; merchant: string; emails: string[] }> {
  await migrate(database);
  const ledger = new Ledger(database.db);
  const users = await database.db
    .insertInto('users')
    .values(
      Array.from({ length: ACCOUNTS + 1 }, (_, i) => ({
        email: `bench-${i}-${randomUUID()}@bench.test`,
        username: `Bench ${i}`,
      })),
    )
    .returning(['id', 'email'])
    .execute();
  const accounts: string[] = [];
  for (const user of users) {
    const account = await ledger.ensureUserAccount(user.id);
    await ledger.transfer({
      id: randomUUID(),
      debitAccountId: SYSTEM_ACCOUNT_ID,
      creditAccountId: account,
      amountPaise: 10_000_000n,
      kind: 'issuance',
    });
    accounts.push(account);
  }
  const merchant = accounts.pop()!;
  return { ledger, accounts, merchant, emails: users.map((user) => user.email!) };
}

async function run(count: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

function pick(accounts: string[], merchant: string, hot: boolean): [string, string] {
  const from = accounts[Math.floor(Math.random() * accounts.length)]!;
  if (hot && Math.random() < 0.5) return [from, merchant];
  let to = accounts[Math.floor(Math.random() * accounts.length)]!;
  if (to === from) to = merchant;
  return [from, to];
}

const execFileAsync = promisify(execFile);
const jobDir = mkdtempSync(join(tmpdir(), 'hasta-bench-'));

/** Runs one load job in its own process (the server keeps this process's event loop to itself). */
async function load(job: LoadJob): Promise<LoadResult> {
  const file = join(jobDir, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(job));
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', new URL('./http-load.ts', import.meta.url).pathname, file],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as LoadResult;
}

/**
 * Every sender gets enough fresh verifications for its share of the next run, written in one statement just
 * before it (a verification lasts 5 minutes).
 */
async function verify(database: Database, senders: Sender[], perSender: number): Promise<void> {
  await sql`
    INSERT INTO verifications (token_hash, identifier, purpose, session_id, expires_at)
    SELECT gen_random_uuid()::text, s.email, 'transfer', s.session_id, now() + interval '5 minutes'
    FROM unnest(${senders.map((s) => s.sessionId)}::uuid[], ${senders.map((s) => s.email)}::text[]) AS s(session_id, email),
         generate_series(1, ${perSender}::int)`.execute(database.db);
}

function transferRequests(
  senders: Sender[],
  merchantEmail: string,
  hot: boolean,
  count: number,
): LoadRequest[] {
  // Senders take turns, so each spends exactly its share of the verifications written for it.
  return Array.from({ length: count }, (_, i) => {
    const from = senders[i % senders.length]!;
    let to =
      hot && Math.random() < 0.5 ? merchantEmail : senders[Math.floor(Math.random() * senders.length)]!.email;
    if (to === from.email) to = merchantEmail;
    return {
      path: '/api/transfer',
      token: from.token,
      body: JSON.stringify({ receiverEmail: to, amount: 1 }),
      idempotencyKey: randomUUID(),
    };
  });
}

async function rawSqlRate(
  database: Database,
  accounts: string[],
  merchant: string,
  hot: boolean,
): Promise<number> {
  return run(TRANSFERS, async () => {
    const [from, to] = pick(accounts, merchant, hot);
    await database.db.transaction().execute(async (trx) => {
      const id = randomUUID();
      await sql`UPDATE ledger_accounts SET debits_posted = debits_posted + 100 WHERE id = ${from}`.execute(
        trx,
      );
      await sql`UPDATE ledger_accounts SET credits_posted = credits_posted + 100 WHERE id = ${to}`.execute(
        trx,
      );
      await sql`INSERT INTO ledger_requests (id, request_hash) VALUES (${id}, 'raw')`.execute(trx);
      await sql`INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount_paise, kind, phase)
                VALUES (${id}, ${from}, ${to}, 100, 'transfer', 'single')`.execute(trx);
    });
  });
}

/** The latency target at the fixed rate: slower requests are explained by what the server was doing then. */
const TARGET_P99_MS = 25;
/** Event-loop turns longer than this count as a stall. */
const STALL_MS = 10;
/** Batch statements this long count as slow. */
const SLOW_BATCH_MS = 10;

interface Span {
  start_ms: number;
  end_ms: number;
}

interface Stall extends Span {
  /** Of the stall, the main thread's time on a CPU (JS, GC) and its time ready to run but waiting for one. */
  on_cpu_ms: number;
  run_queue_ms: number;
}

interface Pauses {
  gc: Span[];
  stalls: Stall[];
  batches: Span[];
  run_queue_ms: number;
}

/** Linux: the main thread's time on a CPU and its time waiting for one, in ms (zeros elsewhere). */
function schedStat(): { on_cpu_ms: number; run_queue_ms: number } {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return { on_cpu_ms: Number(onCpu) / 1e6, run_queue_ms: Number(waiting) / 1e6 };
  } catch {
    return { on_cpu_ms: 0, run_queue_ms: 0 };
  }
}

const now_ms = () => performance.timeOrigin + performance.now();

/** Spans of the `ledger_post_batch` statements while a recording runs: the database's share of a request. */
let batchSpans: Span[] | undefined;
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function timedQuery(this: pg.Client, ...args: unknown[]) {
  const result = clientQuery.apply(this, args);
  const spans = batchSpans;
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
  if (spans && typeof text === 'string' && text.includes('ledger_post_batch') && result instanceof Promise) {
    const start_ms = now_ms();
    result.then(
      () => spans.push({ start_ms, end_ms: now_ms() }),
      () => undefined,
    );
  }
  return result;
} as typeof pg.Client.prototype.query;

/**
 * The server's pauses during a run, on the epoch clock of the load generator's slow requests: garbage
 * collections (the performance timeline), event-loop stalls (late turns of a 2 ms ticker, each split into the
 * main thread's time on a CPU and its time waiting for one) and the batch statements.
 */
function recordPauses(): { stop: () => Pauses } {
  const started = schedStat();
  const gc: Span[] = [];
  const stalls: Stall[] = [];
  const batches: Span[] = [];
  batchSpans = batches;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const start_ms = performance.timeOrigin + entry.startTime;
      gc.push({ start_ms, end_ms: start_ms + entry.duration });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let last = now_ms();
  let lastSched = started;
  const ticker = setInterval(() => {
    const at = now_ms();
    const sched = schedStat();
    if (at - last > STALL_MS)
      stalls.push({
        start_ms: last,
        end_ms: at,
        on_cpu_ms: sched.on_cpu_ms - lastSched.on_cpu_ms,
        run_queue_ms: sched.run_queue_ms - lastSched.run_queue_ms,
      });
    last = at;
    lastSched = sched;
  }, 2);
  return {
    stop: () => {
      clearInterval(ticker);
      observer.disconnect();
      batchSpans = undefined;
      return { gc, stalls, batches, run_queue_ms: schedStat().run_queue_ms - started.run_queue_ms };
    },
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Where the requests slower than the target were: in flight during a garbage collection, during another
 * event-loop stall, during a slow batch statement, or none of these (the generator, the network).
 */
function explainSlow(slow: SlowRequest[], started_at_ms: number, pauses: Pauses): string {
  const overlaps = (request: SlowRequest, span: Span) =>
    span.start_ms < request.at_ms + request.latency_ms && span.end_ms > request.at_ms;
  const gcPauses = pauses.gc.filter((span) => span.end_ms - span.start_ms >= 2);
  const slowBatches = pauses.batches.filter((span) => span.end_ms - span.start_ms >= SLOW_BATCH_MS);
  const counts = { gc: 0, stall: 0, batch: 0, none: 0 };
  for (const request of slow) {
    if (gcPauses.some((span) => overlaps(request, span))) counts.gc += 1;
    else if (pauses.stalls.some((span) => overlaps(request, span))) counts.stall += 1;
    else if (slowBatches.some((span) => overlaps(request, span))) counts.batch += 1;
    else counts.none += 1;
  }
  // Slow requests second by second: a burst (caches expiring together, a backlog) shows as a peak.
  const perSecond = new Array<number>(Math.ceil(OPEN_DURATION_S) + 1).fill(0);
  for (const request of slow) {
    const second = Math.min(perSecond.length - 1, Math.floor((request.at_ms - started_at_ms) / 1000));
    perSecond[second] = perSecond[second]! + 1;
  }
  const gcMs = pauses.gc.map((span) => span.end_ms - span.start_ms);
  const batchMs = pauses.batches.map((span) => span.end_ms - span.start_ms).sort((a, b) => a - b);
  const at = (p: number) =>
    (batchMs[Math.min(batchMs.length - 1, Math.floor(p * batchMs.length))] ?? 0).toFixed(1);
  return [
    `${slow.length} requests over ${TARGET_P99_MS} ms: ${counts.gc} during a GC pause, ${counts.stall} during another event-loop stall, ` +
      `${counts.batch} during a batch statement over ${SLOW_BATCH_MS} ms, ${counts.none} none of these; ` +
      `second by second: ${perSecond.join(' ')}`,
    `GC pauses ${gcMs.length} (sum ${sum(gcMs).toFixed(0)} ms, max ${Math.max(0, ...gcMs).toFixed(1)} ms); ` +
      `event-loop stalls over ${STALL_MS} ms ${pauses.stalls.length} (sum ${sum(pauses.stalls.map((s) => s.end_ms - s.start_ms)).toFixed(0)} ms: ` +
      `on a CPU ${sum(pauses.stalls.map((s) => s.on_cpu_ms)).toFixed(0)} ms, waiting for one ${sum(pauses.stalls.map((s) => s.run_queue_ms)).toFixed(0)} ms); ` +
      `main thread waiting for a CPU ${pauses.run_queue_ms.toFixed(0)} ms in all; ` +
      (batchMs.length === 0
        ? 'batch statements not timed (PostgreSQL only)'
        : `batch statements ${batchMs.length} (p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${(batchMs.at(-1) ?? 0).toFixed(1)} ms)`),
  ].join('\n' + ''.padEnd(29));
}

function describeFailures(result: LoadResult): string {
  const failed = Object.entries(result.failed);
  return failed.length === 0 ? '' : `  (failed: ${failed.map(([status, n]) => `${n}x${status}`).join(', ')})`;
}

async function bench(name: string, database: Database): Promise<void> {
  const { ledger, accounts, merchant, emails } = await setUp(database);
  const merchantEmail = emails.at(-1)!;
  const env = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    RATE_LIMIT_PER_MINUTE: '100000000',
    // BENCH_LOG_INTERVAL_MS=3600000 all but stops the log's sequencer, to see what its rounds cost.
    LOG_SEQUENCE_INTERVAL_MS: process.env.BENCH_LOG_INTERVAL_MS ?? '250',
  });
  const app = await buildApp({ env, database, messenger: createMessenger(env, database.db) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const senders: Sender[] = [];
  for (const email of emails.slice(0, -1)) {
    const user = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const { token, sessionId } = await createSession(database.db, user.id);
    senders.push({ email, token, sessionId });
  }
  const openCount = OPEN_RATE_PER_S * OPEN_DURATION_S;
  const warmUpCount = Math.max(senders.length, HTTP_TRANSFERS / 2);
  const loadVerified = async (job: LoadJob) => {
    await verify(database, senders, Math.ceil(job.requests.length / senders.length) + 1);
    return load(job);
  };
  // Warm-up, so the figures are the steady state (sessions and receivers looked up once, code compiled), not
  // the first minute after a start.
  await loadVerified({
    port,
    mode: 'closed',
    concurrency: CONCURRENCY,
    count: warmUpCount,
    rate_per_s: 0,
    duration_s: 0,
    requests: transferRequests(senders, merchantEmail, false, warmUpCount),
  });

  const rows: string[] = [];
  for (const hot of process.env.BENCH_HOT_FIRST ? [true, false] : [false, true]) {
    const traffic = hot ? 'hot merchant 50%' : 'uniform';
    const raw = await rawSqlRate(database, accounts, merchant, hot);
    const closed = await loadVerified({
      port,
      mode: 'closed',
      concurrency: CONCURRENCY,
      count: HTTP_TRANSFERS,
      rate_per_s: 0,
      duration_s: 0,
      requests: transferRequests(senders, merchantEmail, hot, HTTP_TRANSFERS),
    });
    // The log appends what the full-load run left waiting before the fixed-rate run starts, so that run
    // measures 500/s and not the catch-up after 10,000 transfers at full speed (timed and printed).
    const backlog = await sql<{ n: string }>`SELECT count(*)::text AS n FROM tlog_outbox`.execute(
      database.db,
    );
    const catchUpStarted = performance.now();
    await app.transparencyLog.flush();
    const catchUp = `the log's backlog after the full-load run (${backlog.rows[0]!.n} entries) appended in ${((performance.now() - catchUpStarted) / 1000).toFixed(1)} s before the fixed-rate run`;
    // The server's event-loop delay during the fixed-rate run: what a request waits behind other work.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const profiler = process.env.BENCH_PROFILE ? new inspector.Session() : undefined;
    if (profiler) {
      profiler.connect();
      await new Promise<void>((r) =>
        profiler.post('Profiler.enable', () => profiler.post('Profiler.start', () => r())),
      );
    }
    const pauses = recordPauses();
    const open = await loadVerified({
      port,
      mode: 'open',
      concurrency: CONCURRENCY,
      count: openCount,
      rate_per_s: OPEN_RATE_PER_S,
      duration_s: OPEN_DURATION_S,
      requests: transferRequests(senders, merchantEmail, hot, openCount),
      slow_ms: TARGET_P99_MS,
    });
    loopDelay.disable();
    const slowExplained = explainSlow(open.slow, open.started_at_ms, pauses.stop());
    if (profiler) {
      const file = `${process.env.BENCH_PROFILE}-${hot ? 'hot' : 'uniform'}.cpuprofile`;
      await new Promise<void>((r) =>
        profiler.post('Profiler.stop', (_error, { profile }) => {
          writeFileSync(file, JSON.stringify(profile));
          r();
        }),
      );
      profiler.disconnect();
    }
    const inProcess = await run(TRANSFERS, async () => {
      const [from, to] = pick(accounts, merchant, hot);
      await ledger.transfer({
        id: randomUUID(),
        debitAccountId: from,
        creditAccountId: to,
        amountPaise: 100n,
        kind: 'transfer',
      });
    });
    rows.push(
      [
        `${name.padEnd(10)} ${traffic.padEnd(17)}`,
        `HTTP ${closed.rate_per_s.toFixed(0).padStart(5)}/s (x${(closed.rate_per_s / raw).toFixed(2)} raw)${describeFailures(closed)}`,
        `at ${OPEN_RATE_PER_S}/s: p50 ${open.latency_ms_p50.toFixed(1)} ms, p99 ${open.latency_ms_p99.toFixed(1)} ms${describeFailures(open)}`,
        `in process ${inProcess.toFixed(0).padStart(5)}/s`,
        `raw SQL ${raw.toFixed(0).padStart(5)}/s`,
      ].join('   '),
    );
    rows.push(
      `${''.padEnd(28)} HTTP latency at full load: p50 ${closed.latency_ms_p50.toFixed(1)} ms, p99 ${closed.latency_ms_p99.toFixed(1)} ms; generator's send lag p99 ${open.send_lag_ms_p99.toFixed(1)} ms; server event-loop delay at ${OPEN_RATE_PER_S}/s: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
    );
    rows.push(`${''.padEnd(28)} at ${OPEN_RATE_PER_S}/s, ${slowExplained}`);
    rows.push(`${''.padEnd(28)} ${catchUp}`);
  }
  await app.close();
  const findings = await auditLedger(database.db);
  console.log(rows.join('\n'));
  console.log(
    `${name.padEnd(10)} audit: ${findings.length === 0 ? 'the books balance' : findings.join('; ')}`,
  );
}

/** Both databases: each in a process of its own, so neither's heap and threads weigh on the other's figures. */
function benchEach(databases: string[]): void {
  for (const database of databases) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_DATABASES: database, BENCH_CHILD: '1' },
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}

/**
 * Issue 25's figures beside these: one and two API server processes on one PostgreSQL with a synchronous
 * standby, and the standby's cost (bench/replicas.ts, its own throwaway primary and standby; `--short` here,
 * BENCH_REPLICAS=full for its full run, BENCH_REPLICAS=0 to leave it out).
 */
function benchReplicas(): void {
  console.log('\n--- several API servers on one PostgreSQL, with a synchronous standby (bench/replicas.ts)');
  const args = ['--import', 'tsx', new URL('./replicas.ts', import.meta.url).pathname];
  if (process.env.BENCH_REPLICAS !== 'full') args.push('--short');
  const child = spawnSync(process.execPath, args, { stdio: 'inherit', env: process.env });
  if (child.status !== 0) process.exit(child.status ?? 1);
}

// BENCH_DATABASES=postgres (or pglite) runs just one of them.
const only = process.env.BENCH_DATABASES;
if (!process.env.BENCH_CHILD)
  console.log(
    `transfers among ${ACCOUNTS} accounts: HTTP ${HTTP_TRANSFERS} per run with ${CONCURRENCY} callers, then ${OPEN_RATE_PER_S}/s for ${OPEN_DURATION_S} s; in process and raw SQL ${TRANSFERS} per run`,
  );
const base = process.env.DATABASE_URL_TEST;
if (only === undefined) {
  if (!base)
    console.log(
      'PostgreSQL skipped: run through npm run bench:ledger (it starts a throwaway cluster) or set DATABASE_URL_TEST.',
    );
  benchEach(base ? ['pglite', 'postgres'] : ['pglite']);
  if (base && process.env.BENCH_REPLICAS !== '0') benchReplicas();
} else if (only === 'pglite') {
  // On disk, as the server keeps it (DATA_DIR): in memory, PGlite's files grow by copying, which stalls the
  // server for tens of milliseconds at a time as the tables grow.
  const dataDir = mkdtempSync(join(tmpdir(), 'hasta-bench-pglite-'));
  const lite = await openDatabase({ dataDir });
  await bench('PGlite', lite);
  await lite.close();
  rmSync(dataDir, { recursive: true, force: true });
} else if (only === 'postgres' && base) {
  const name = `hasta_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const postgres = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: '',
    onIdleConnectionError: () => {},
  });
  await bench('PostgreSQL', postgres);
  await postgres.close();
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
} else {
  console.log('BENCH_DATABASES is pglite or postgres (the latter with DATABASE_URL_TEST set).');
  process.exit(1);
}
