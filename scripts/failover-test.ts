/**
 * npm run test:failover — Hasta past one machine, losing machines under load (issue 25).
 *
 * Starts what `npm run cluster` starts (scripts/cluster-parts.ts): a PostgreSQL primary with a synchronous
 * standby, two API server processes and HAProxy in front. Through the load balancer, clients sign in and
 * send transfers (POST /api/transfer, each with its own Idempotency-Key, sent again with the same key and
 * body on a 503 or a lost answer, as a client does), palms are enrolled through the API (step-up code, then
 * POST /Palm/register) and tills take palm payments (POST /Palm/authenticate, retried the same way). Then:
 * kill -9 one API server; kill the PostgreSQL primary (pg_ctl -m immediate) and promote the standby. The
 * load runs throughout. Afterwards, with the killed server started again:
 *   - every acknowledged transfer and palm payment is in the ledger exactly once, nothing else moved, and
 *     every balance is its opening balance plus exactly what was acknowledged; the auditor finds nothing;
 *   - every acknowledged enrolment pays on each live API server;
 *   - the service took writes again within 10 s of the promotion;
 *   - directly on the two servers' ports: a palm enrolled on A pays on B, consent withdrawn on A is refused
 *     on B, a session revoked on A is refused on B, each within 1 s.
 * Prints one summary line; exits 1 on any failure. Nothing it started is left running on any exit path.
 *
 * `--short` (or FAILOVER_SHORT=1): fewer people and requests, fsync off (a commit still waits for the
 * standby): the version `npm test` runs. FAILOVER_PORT sets the first of the five ports it takes.
 */
import { type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import {
  DEVICE_HEADER,
  framesDigest,
  scanChallengeMessage,
  type ScanPurpose,
} from '@hasta/contracts/devices';
import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import { createIdentity, renderSample, type SyntheticIdentity } from '@hasta/palm/synthetic';
import { hashToken, newToken } from '../apps/server/src/auth/secrets';
import { findSession } from '../apps/server/src/auth/sessions';
import { insertDevice } from '../apps/server/src/devices/device-repository';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { auditLedger, Ledger, SYSTEM_ACCOUNT_ID, uuidFromText } from '../apps/server/src/ledger/ledger';
import { hashPassword } from '../apps/server/src/lib/password';
import {
  databaseCommand,
  haproxyConfig,
  killHard,
  REPO,
  run,
  SERVER_ARGS,
  signalGroup,
  startChild,
  startDatabase,
  stopChild,
  waitForHealth,
} from './cluster-parts';

const SHORT = process.argv.includes('--short') || process.env.FAILOVER_SHORT === '1';
const SIZE = SHORT
  ? { people: 16, clients: 4, palms: 4, tills: 2, acksPerPhase: 15, paymentsPerPhase: 2, paceMs: 50 }
  : { people: 60, clients: 16, palms: 10, tills: 4, acksPerPhase: 150, paymentsPerPhase: 10, paceMs: 10 };
/** Transfer codes written ahead per sender: more than the run can use. */
const CODES_PER_SENDER = SHORT ? 1_000 : 3_000;
const OPENING_PAISE = 1_000_000n;
const PASSWORD = 'failover horse battery';
/** Bounds in seconds, loose on purpose: the machine may be busy. What the issue asks is checked exactly. */
const PHASE_TIMEOUT_MS = 180_000;
const HEALTH_TIMEOUT_MS = 120_000;
/**
 * The issue's targets: writable again within 10 s of the promotion; a change on one server seen on the other
 * within 1 s. The full run (a measurement, run on its own) holds them; the short run inside `npm test` must
 * pass on a busy machine, so there they only bound that the write and the changes arrive at all, and the
 * summary line says whether the targets were met.
 */
const WRITABLE_TARGET_MS = 10_000;
const PROPAGATION_TARGET_MS = 1_000;
const WRITABLE_WITHIN_MS = SHORT ? 60_000 : WRITABLE_TARGET_MS;
const PROPAGATION_MS = SHORT ? 15_000 : PROPAGATION_TARGET_MS;
const RETRY_PAUSE_MS = 100;
/**
 * How often the cross-replica checks try again while waiting for a change to show on the other server: a
 * session check is cheap; a palm payment is a gallery search, and a burst of them would slow each other.
 */
const ATTEMPT_EVERY_MS = { session: 50, palm: 250 };
const PALM_SEED = 20261126;

const basePort = Number(process.env.FAILOVER_PORT ?? 21_000 + Math.floor(Math.random() * 20_000));
const ports = {
  balancer: basePort,
  api: [basePort + 1, basePort + 2],
  primary: basePort + 3,
  standby: basePort + 4,
};
const LB = `http://127.0.0.1:${ports.balancer}`;
const direct = (i: number) => `http://127.0.0.1:${ports.api[i]}`;

// ---- what is running, and stopping it on every way out

const servers: Array<ChildProcess | undefined> = [undefined, undefined];
let balancer: ChildProcess | undefined;
let dir: string | undefined;
let database: Database | undefined;
let finishing = false;
const serverLog: string[] = [];

function stopEverythingNow(): void {
  for (const child of [balancer, ...servers]) if (child) signalGroup(child, 'SIGKILL');
  if (dir !== undefined) {
    databaseCommand('stop', dir);
    rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  }
}

async function finish(code: number): Promise<never> {
  if (!finishing) {
    finishing = true;
    await database?.close().catch(() => {});
    for (const child of [balancer, ...servers]) if (child) await stopChild(child, 5_000);
    stopEverythingNow();
  }
  process.exit(code);
}

function fail(message: string): never {
  console.error(`failover test FAILED: ${message}`);
  if (serverLog.length) console.error(`last server lines:\n${serverLog.slice(-30).join('\n')}`);
  void finish(1);
  throw new Error(message);
}

process.on('SIGINT', () => void finish(130));
process.on('SIGTERM', () => void finish(143));
process.on('exit', stopEverythingNow);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `condition` (polled, never a fixed sleep); fails naming `what` after `timeoutMs`. */
async function until(what: string, timeoutMs: number, condition: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) fail(`${what}: not within ${timeoutMs / 1000} s (${loadState()})`);
    await sleep(50);
  }
}

// ---- the processes

const SERVER_ENV = {
  HOST: '127.0.0.1',
  COOKIE_SECRET: randomBytes(32).toString('hex'),
  PUBLIC_URL: LB,
  TRUST_PROXY: '1',
  NODE_ENV: 'test',
  SEED_DEMO: '0',
  LOG_LEVEL: 'error',
  PALM_KEY: 'hasta-failover-test-palm-key-0001-repeatable',
  RATE_LIMIT_PER_MINUTE: '100000000',
  PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1000000',
  PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE: '1000000',
  PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: '1000000',
  PALM_NEW_ENROLMENT_HOLD_HOURS: '0',
  // The per-payer limits of palm-alone payments out of the way of a load of small payments.
  PALM_HOURLY_PAYMENTS: '1000',
  PALM_DAILY_LIMIT_PAISE: '20000000',
  SMS_BUDGET_PER_CLIENT_PER_HOUR: '1000000',
  SMS_BUDGET_GLOBAL_PER_HOUR: '1000000',
};

async function startServer(i: number, databaseUrl: string): Promise<void> {
  const name = `api-${i + 1}`;
  const child = startChild(name, process.execPath, SERVER_ARGS, {
    env: { ...SERVER_ENV, DATABASE_URL: databaseUrl, PORT: String(ports.api[i]) },
    onLine: (line) => {
      serverLog.push(`[${name}] ${line}`);
      if (serverLog.length > 200) serverLog.shift();
    },
    onExit: (code, signal) => {
      if (!finishing && servers[i] === child && signal !== 'SIGKILL') {
        console.error(`failover test FAILED: ${name} exited by itself (${signal ?? `code ${code}`})`);
        void finish(1);
      }
    },
  });
  servers[i] = child;
  await waitForHealth(`${direct(i)}/api/health`, HEALTH_TIMEOUT_MS, () => finishing);
}

// ---- HTTP as a client does it

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One request; null when no answer came back from a server: the connection broke (the server died), or
 * HAProxy answered with its own error page instead (502/503/504, not JSON), which no server sent.
 */
async function call(
  base: string,
  path: string,
  body: object | undefined,
  headers: Record<string, string> = {},
): Promise<Answer | null> {
  try {
    const res = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return null;
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Sends until the answer is not a 5xx or a lost one: the same key and body every time, as a client would. */
async function callUntilAnswered(
  base: string,
  path: string,
  body: object,
  headers: Record<string, string>,
  counts: { retries: number; unavailable: number; lost: number },
  withinMs = PHASE_TIMEOUT_MS,
): Promise<Answer> {
  return sendUntilAnswered(path, () => call(base, path, body, headers), counts, withinMs);
}

/** Sends until the answer is not a 5xx or a lost one (each attempt as `send` makes it). */
async function sendUntilAnswered(
  path: string,
  send: () => Promise<Answer | null>,
  counts: { retries: number; unavailable: number; lost: number },
  withinMs = PHASE_TIMEOUT_MS,
): Promise<Answer> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await send();
    if (answer && answer.status < 500) return answer;
    if (answer === null) counts.lost += 1;
    else if (answer.status === 503) counts.unavailable += 1;
    else if (answer) fail(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    if (Date.now() > deadline) fail(`${path} had no answer for ${withinMs / 1000} s`);
    counts.retries += 1;
    await sleep(RETRY_PAUSE_MS);
  }
}

// ---- devices (issue 22): each person's own browser, made in the database as pairing makes it

const devices = new Map<string, { token: string; privateKey: KeyObject }>();

async function deviceOf(person: Person): Promise<{ token: string; privateKey: KeyObject }> {
  const known = devices.get(person.userId);
  if (known) return known;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const token = newToken();
  await insertDevice(database!.db, {
    kind: 'personal',
    name: `failover ${person.index}`,
    ownerUserId: person.userId,
    merchantId: null,
    kioskId: null,
    tokenHash: hashToken(token),
    publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! },
    createdAt: new Date(),
  });
  const device = { token, privateKey };
  devices.set(person.userId, device);
  return device;
}

/**
 * One attempt at a call that posts a scan, as the person's paired browser makes it: a new challenge (POST
 * /Palm/challenge), signed over the frames, sent with the body. A lost or 5xx challenge is that attempt's
 * answer (the caller retries with the same body and Idempotency-Key, and a new challenge).
 */
async function signedScanCall(
  base: string,
  person: Person,
  path: '/Palm/register' | '/Palm/authenticate',
  body: { scan: PalmScan; amount?: number } & Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer | null> {
  const device = await deviceOf(person);
  const purpose: ScanPurpose = path === '/Palm/register' ? 'enrol' : 'receive';
  const asked = await call(
    base,
    '/Palm/challenge',
    { purpose, ...(body.amount === undefined ? {} : { amount: body.amount }) },
    { ...bearer(person.token), [DEVICE_HEADER]: device.token },
  );
  if (!asked || asked.status !== 200) return asked;
  const challenge = asked.body as {
    nonce: string;
    purpose: ScanPurpose;
    amount: string | null;
    receiver: string | null;
  };
  const message = scanChallengeMessage({
    nonce: challenge.nonce,
    purpose: challenge.purpose,
    amount: challenge.amount,
    receiver: challenge.receiver,
    framesSha256: await framesDigest(body.scan.frames),
  });
  const signature = sign('sha256', Buffer.from(message, 'utf8'), {
    key: device.privateKey,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
  return call(
    base,
    path,
    { ...body, challenge: challenge.nonce, signature },
    { ...headers, ...bearer(person.token), [DEVICE_HEADER]: device.token },
  );
}

// ---- people, palms

interface Person {
  index: number;
  userId: string;
  email: string;
  token: string;
}

const palms = new Map<number, SyntheticIdentity>();
const nextSample = new Map<number, number>();
/** New captures of synthetic palm `identity` every time (the replay guard refuses frames seen before). */
function freshScan(identity: number): PalmScan {
  let palm = palms.get(identity);
  if (!palm) palms.set(identity, (palm = createIdentity(PALM_SEED, identity)));
  const first = nextSample.get(identity) ?? 0;
  nextSample.set(identity, first + 3);
  const frames = [first, first + 1, first + 2].map((s) => renderSample(palm, s, 'medium', 128));
  return { frames: frames.map((f) => Buffer.from(f).toString('base64')), source: 'demo' };
}

async function seedPeople(db: Database, count: number, prefix: string): Promise<Omit<Person, 'token'>[]> {
  const ledger = new Ledger(db.db);
  const passwordHash = await hashPassword(PASSWORD);
  const people: Omit<Person, 'token'>[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${prefix}-${index}-${randomUUID().slice(0, 8)}@failover.test`;
    const user = await db.db
      .insertInto('users')
      .values({ email, username: `${prefix} ${index}`, password_hash: passwordHash })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ledger.transfer({
      id: randomUUID(),
      debitAccountId: SYSTEM_ACCOUNT_ID,
      creditAccountId: await ledger.ensureUserAccount(user.id),
      amountPaise: OPENING_PAISE,
      kind: 'issuance',
    });
    people.push({ index, userId: user.id, email });
  }
  return people;
}

/** Signs in through `base` (POST /api/auth/login), retried while the service is unavailable. */
async function signIn(base: string, email: string, counts: Counts): Promise<string> {
  const answer = await callUntilAnswered(base, '/api/auth/login', { email, password: PASSWORD }, {}, counts);
  if (answer.status !== 200) fail(`sign-in of ${email}: ${answer.status} ${JSON.stringify(answer.body)}`);
  counts.signIns += 1;
  return answer.body.token as string;
}

/** Verified transfer codes written ahead for a session, as if the sender had just entered one each time. */
async function codesAhead(db: Database, person: Person, count: number): Promise<void> {
  const session = await findSession(db.db, person.token);
  if (!session) fail(`no session for ${person.email}`);
  await sql`
    INSERT INTO verifications (token_hash, identifier, purpose, session_id, expires_at)
    SELECT gen_random_uuid()::text, ${person.email}, 'transfer', ${session.sessionId}, now() + interval '30 minutes'
    FROM generate_series(1, ${count}::int)`.execute(db.db);
}

/**
 * The newest code sent to `email` after outbox message `after`, read from the outbox (read again while the
 * database is failing over); null when there is none.
 */
async function lastCode(email: string, after: number): Promise<string | null> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  for (;;) {
    try {
      const row = await database!.db
        .selectFrom('outbox_messages')
        .select(['id', 'body'])
        .where('to_address', '=', email)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row || Number(row.id) <= after) return null;
      return /\b(\d{6})\b/.exec(row.body)?.[1] ?? null;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

async function lastOutboxId(): Promise<number> {
  const row = await database!.db
    .selectFrom('outbox_messages')
    .select(({ fn }) => fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Enrols the right hand of `person` on `base` the way the app does (step-up code to their email, verified,
 * then POST /Palm/register with consent), starting over on a 503 or a lost answer. Answers the register
 * call's final answer, or null when the step-up's code could not be had (see below).
 */
async function enrol(base: string, person: Person, identity: number, counts: Counts): Promise<Answer | null> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  const again = async () => {
    if (Date.now() > deadline)
      fail(`enrolment of ${person.email}: no answer for ${PHASE_TIMEOUT_MS / 1000} s`);
    counts.retries += 1;
    await sleep(RETRY_PAUSE_MS);
  };
  for (;;) {
    // A step-up this session already has (its answer may have been lost) is used as it is.
    const live = await hasLiveStepUp(person).catch(() => null);
    if (live === null) {
      await again();
      continue;
    }
    if (!live) {
      const before = await lastOutboxId().catch(() => null);
      if (before === null) {
        await again();
        continue;
      }
      const sent = await call(base, '/Palm/step-up/send', { purpose: 'palm_enrol' }, bearer(person.token));
      if (!sent || sent.status >= 500) {
        await again();
        continue;
      }
      // Refused (a code was sent a moment ago, before an answer got lost): that code is the one to enter.
      const otp = await lastCode(person.email, sent.status === 200 ? before : 0);
      // Refused with no code ever delivered: the sends' allowance (3 per 10 minutes) was used by sends whose
      // code was lost to the failover. A person would wait; the load gives this enrolment up (it was never
      // acknowledged, so nothing is owed) and goes on with the next.
      if (!otp && sent.status === 429) return null;
      if (!otp) fail(`no step-up code for ${person.email} (send answered ${sent.status})`);
      const verified = await call(
        base,
        '/Palm/step-up/verify',
        { purpose: 'palm_enrol', otp },
        bearer(person.token),
      );
      if (!verified || verified.status !== 200) {
        await again();
        continue;
      }
    }
    const body = { which_hand: 'right', consent: true, scan: freshScan(identity) };
    const registered = await signedScanCall(base, person, '/Palm/register', body);
    if (!registered || registered.status >= 500) {
      await again();
      continue;
    }
    return registered;
  }
}

async function hasLiveStepUp(person: Person): Promise<boolean> {
  const session = await findSession(database!.db, person.token);
  if (!session) fail(`no session for ${person.email}`);
  const live = await database!.db
    .selectFrom('palm_step_ups')
    .select('id')
    .where('session_id', '=', session.sessionId)
    .where('purpose', '=', 'palm_enrol')
    .where('expires_at', '>', new Date(Date.now() + 30_000))
    .executeTakeFirst();
  return live !== undefined;
}

/** A palm payment of `amountPaise` to `till` by `identity`'s palm, on `base`. */
function palmPay(base: string, till: Person, identity: number, amountPaise: bigint, key = randomUUID()) {
  return {
    key,
    body: { amount: Number(amountPaise) / 100, scan: freshScan(identity) },
    send(counts: Counts) {
      return sendUntilAnswered(
        '/Palm/authenticate',
        () => signedScanCall(base, till, '/Palm/authenticate', this.body, { 'idempotency-key': key }),
        counts,
      );
    },
  };
}

// ---- the load

interface Counts {
  retries: number;
  /** Requests with no answer from a server (the connection broke, or the balancer answered instead). */
  lost: number;
  unavailable: number;
  signIns: number;
}

interface Sent {
  kind: 'transfer' | 'palm';
  key: string;
  payer: string;
  receiver: string;
  /** The id the ledger stores it under (from the key, as the server derives it). */
  expectedId: string;
  amountPaise: bigint;
  state: 'pending' | 'acknowledged' | 'refused';
  answeredAt?: number;
  transactionId?: string;
  status?: number;
  message?: string;
}

/** Where the load stands, for a failure's message. */
function loadState(): string {
  const of = (kind: Sent['kind']) => {
    const mine = sent.filter((r) => r.kind === kind);
    const refused = mine.filter((r) => r.state === 'refused');
    const why = [...new Set(refused.map((r) => `${r.status} ${r.message}`))].join(', ');
    return `${kind}: ${mine.length} sent, ${acknowledged(kind)} acknowledged, ${refused.length} refused ${why}, ${mine.filter((r) => r.state === 'pending').length} pending`;
  };
  return `${of('transfer')}; ${of('palm')}; ${counts.unavailable} answers 503, ${counts.retries} resends`;
}

const counts: Counts = { retries: 0, unavailable: 0, lost: 0, signIns: 0 };
const sent: Sent[] = [];
const acknowledged = (kind: Sent['kind']) =>
  sent.filter((r) => r.kind === kind && r.state === 'acknowledged').length;

function settle(request: Sent, answer: Answer): void {
  request.answeredAt = performance.now();
  if (answer.status === 200) {
    request.state = 'acknowledged';
    request.transactionId = (answer.body.transaction as { id: string }).id;
  } else {
    request.state = 'refused';
    request.status = answer.status;
    request.message = String(answer.body.message ?? '');
  }
}

async function transferLoad(senders: Person[], stop: { now: boolean }): Promise<void> {
  await Promise.all(
    Array.from({ length: SIZE.clients }, async (_, client) => {
      for (let i = 0; !stop.now; i += 1) {
        const from = senders[(client + i * SIZE.clients) % senders.length]!;
        let to = senders[Math.floor(Math.random() * senders.length)]!;
        if (to === from) to = senders[(to.index + 1) % senders.length]!;
        const request: Sent = {
          kind: 'transfer',
          key: randomUUID(),
          payer: from.userId,
          receiver: to.userId,
          expectedId: '',
          amountPaise: BigInt(1 + Math.floor(Math.random() * 500)),
          state: 'pending',
        };
        request.expectedId = uuidFromText(`transfer:${from.userId}:${request.key}`);
        sent.push(request);
        const answer = await callUntilAnswered(
          LB,
          '/api/transfer',
          { receiverEmail: to.email, amount: Number(request.amountPaise) / 100 },
          { ...bearer(from.token), 'idempotency-key': request.key },
          counts,
        );
        settle(request, answer);
        // A steady load, not a flood: the palm payments and the servers' other work get their turn.
        await sleep(SIZE.paceMs);
      }
    }),
  );
}

interface Enrolled {
  person: Person;
  identity: number;
}

async function palmLoad(tills: Person[], enrolled: Enrolled[], stop: { now: boolean }): Promise<void> {
  await Promise.all(
    tills.map(async (till) => {
      for (let i = 0; !stop.now; i += 1) {
        if (enrolled.length === 0) {
          await sleep(RETRY_PAUSE_MS);
          continue;
        }
        const payer = enrolled[Math.floor(Math.random() * enrolled.length)]!;
        const amountPaise = BigInt(100 + Math.floor(Math.random() * 400));
        const payment = palmPay(LB, till, payer.identity, amountPaise);
        const request: Sent = {
          kind: 'palm',
          key: payment.key,
          payer: payer.person.userId,
          receiver: till.userId,
          expectedId: uuidFromText(`palm:${till.userId}:${payment.key}`),
          amountPaise,
          state: 'pending',
        };
        sent.push(request);
        settle(request, await payment.send(counts));
      }
    }),
  );
}

// ---- the checks

async function checkLedger(everyone: Person[]): Promise<void> {
  const db = database!.db;
  const findings = await auditLedger(db);
  if (findings.length > 0) fail(`the auditor found: ${findings.join('; ')}`);
  const pending = sent.filter((r) => r.state === 'pending').length;
  if (pending > 0) fail(`${pending} requests were never answered`);
  const acked = sent.filter((r) => r.state === 'acknowledged');
  for (const request of acked) {
    if (request.transactionId !== request.expectedId)
      fail(`key ${request.key} was answered with ${request.transactionId}, not ${request.expectedId}`);
  }
  const stored = await sql<{ id: string; kind: string }>`
    SELECT id, kind FROM ledger_transfers WHERE id = ANY(${sent.map((r) => r.expectedId)}::uuid[])`.execute(
    db,
  );
  const storedIds = new Set(stored.rows.map((row) => row.id));
  for (const request of acked)
    if (!storedIds.has(request.expectedId))
      fail(`acknowledged ${request.kind} ${request.expectedId} is missing`);
  if (stored.rows.length !== acked.length)
    fail(`${stored.rows.length} transfers stored for ${acked.length} acknowledged keys`);
  const moved = await db
    .selectFrom('ledger_transfers')
    .select(({ fn }) => fn.countAll<string>().as('n'))
    .where('kind', 'in', ['transfer', 'payment'])
    .executeTakeFirstOrThrow();
  if (BigInt(moved.n) !== BigInt(acked.length))
    fail(`${moved.n} transfers and payments in the ledger, ${acked.length} acknowledged`);
  const expected = new Map(everyone.map((p) => [p.userId, OPENING_PAISE]));
  for (const request of acked) {
    expected.set(request.payer, expected.get(request.payer)! - request.amountPaise);
    expected.set(request.receiver, expected.get(request.receiver)! + request.amountPaise);
  }
  const balances = await db
    .selectFrom('ledger_accounts')
    .select(['user_id', 'credits_posted', 'debits_posted'])
    .where('kind', '=', 'user')
    .execute();
  for (const row of balances) {
    const balance = row.credits_posted - row.debits_posted;
    if (expected.has(row.user_id!) && balance !== expected.get(row.user_id!))
      fail(`account of ${row.user_id} holds ${balance} paise, expected ${expected.get(row.user_id!)}`);
  }
}

/**
 * Sends `attempt` from `since` on, a new one every `everyMs` without waiting for the ones before
 * (on a busy machine one answer may take longer than the whole bound), until one shows `done` or the
 * window of `PROPAGATION_MS` from `since` is over; passes when an attempt sent within it shows the change.
 * Answers [sent at, answered at] of the earliest such attempt, in ms after `since`.
 */
async function seenWithin(
  what: string,
  since: number,
  attempt: () => Promise<Answer | null>,
  done: (answer: Answer) => boolean,
  everyMs: number,
): Promise<[number, number]> {
  const attempts: Array<Promise<{ sentAt: number; answeredAt: number; seen: boolean }>> = [];
  let seen = false;
  while (!seen && performance.now() - since <= PROPAGATION_MS) {
    const sentAt = performance.now() - since;
    attempts.push(
      attempt().then((answer) => {
        if (answer && answer.status >= 500) fail(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
        const shown = answer !== null && done(answer);
        if (shown) seen = true;
        return { sentAt, answeredAt: performance.now() - since, seen: shown };
      }),
    );
    await Promise.race([sleep(everyMs), attempts.at(-1)]);
  }
  const first = (await Promise.all(attempts)).find((a) => a.seen);
  if (!first) fail(`${what}: not seen on the other server by any attempt sent within ${PROPAGATION_MS} ms`);
  return [Math.round(first.sentAt), Math.round(first.answeredAt)];
}

// ---- the run

async function main(): Promise<void> {
  const startedAt = performance.now();
  run('bash', [join(REPO, 'scripts/ensure-cluster-tools.sh')]);
  dir = mkdtempSync(join(tmpdir(), 'hasta-failover-'));
  const databaseUrl = startDatabase(dir, ports.primary, ports.standby, {
    PG_CLUSTER_FSYNC: SHORT ? 'off' : 'on',
  });
  // The test's own connections follow the primary as the servers do; their losses are expected here.
  database = await openDatabase({
    databaseUrl,
    dataDir: join(dir, 'unused'),
    onIdleConnectionError: () => {},
    onPrimaryChange: () => {},
  });
  await migrate(database);
  const senders = await seedPeople(database, SIZE.people, 'sender');
  const payers = await seedPeople(database, SIZE.palms + 2, 'palm');
  const tillPeople = await seedPeople(database, SIZE.tills + 1, 'till');

  await startServer(0, databaseUrl);
  await startServer(1, databaseUrl);
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig({ host: '127.0.0.1', port: ports.balancer, apiPorts: ports.api }));
  balancer = startChild('haproxy', process.env.HAPROXY ?? 'haproxy', ['-f', config, '-db'], {
    onLine: (line) => serverLog.push(`[haproxy] ${line}`),
    onExit: (code, signal) => {
      if (finishing) return;
      console.error(`failover test FAILED: haproxy exited (${signal ?? `code ${code}`})`);
      void finish(1);
    },
  });
  await waitForHealth(`${LB}/api/health`, HEALTH_TIMEOUT_MS, () => finishing);

  // Everyone signs in through the load balancer.
  const signedIn = async (list: Omit<Person, 'token'>[]) =>
    Promise.all(list.map(async (p) => ({ ...p, token: await signIn(LB, p.email, counts) })));
  const transferPeople = await signedIn(senders);
  const palmPeople = await signedIn(payers);
  const tills = await signedIn(tillPeople);
  for (const person of transferPeople) await codesAhead(database, person, CODES_PER_SENDER);
  // Every palm caller's paired device is made now, while the database is steady: made on first use, one could
  // fall in the failover and its insert with it.
  for (const person of [...palmPeople, ...tills]) await deviceOf(person);

  // The load: transfers, palm enrolments one after another, and palm payments at the tills.
  const stop = { now: false };
  const enrolled: Enrolled[] = [];
  const enrolments = { acknowledged: 0, refused: 0, givenUp: 0 };
  const loadTills = tills.slice(0, SIZE.tills);
  const load = Promise.all([
    transferLoad(transferPeople, stop),
    palmLoad(loadTills, enrolled, stop),
    (async () => {
      for (const [i, person] of palmPeople.slice(0, SIZE.palms).entries()) {
        if (stop.now) break;
        const identity = 26_000 + i;
        const answer = await enrol(LB, person, identity, counts);
        if (answer === null) enrolments.givenUp += 1;
        else if (answer.status === 200) {
          enrolments.acknowledged += 1;
          enrolled.push({ person, identity });
        } else enrolments.refused += 1;
      }
    })(),
  ]);
  load.catch((error: unknown) => {
    if (!finishing) fail(`the load stopped: ${error instanceof Error ? error.message : String(error)}`);
  });
  const progress = async (what: string) => {
    const transfers = acknowledged('transfer') + SIZE.acksPerPhase;
    const payments = acknowledged('palm') + SIZE.paymentsPerPhase;
    await until(
      what,
      PHASE_TIMEOUT_MS,
      () => acknowledged('transfer') >= transfers && acknowledged('palm') >= payments,
    );
  };
  await progress('load before any failure');

  // kill -9 one API server; the load goes on through the other.
  await killHard(servers[0]!);
  const serverKilledWith = acknowledged('transfer');
  await progress('load with one API server killed');

  // Kill the PostgreSQL primary, promote the standby.
  const primaryKilledWith = acknowledged('transfer') + acknowledged('palm');
  if (!databaseCommand('kill-primary', dir)) fail('pg-cluster.sh kill-primary failed');
  if (!databaseCommand('promote', dir)) fail('pg-cluster.sh promote failed');
  const promotedAt = performance.now();
  // Writable again: the first write acknowledged through the load balancer after the promotion.
  const [probeSender, probeReceiver] = [transferPeople[0]!, transferPeople[1]!];
  const probe = await callUntilAnswered(
    LB,
    '/api/transfer',
    { receiverEmail: probeReceiver.email, amount: 1 },
    { ...bearer(probeSender.token), 'idempotency-key': randomUUID() },
    counts,
    WRITABLE_WITHIN_MS,
  ).then((answer) => ({ answer, at: performance.now() }));
  const writableAfterMs = Math.round(probe.at - promotedAt);
  if (probe.answer.status !== 200) fail(`the write after the promotion was refused: ${probe.answer.status}`);
  sent.push({
    kind: 'transfer',
    key: 'probe',
    payer: probeSender.userId,
    receiver: probeReceiver.userId,
    expectedId: (probe.answer.body.transaction as { id: string }).id,
    transactionId: (probe.answer.body.transaction as { id: string }).id,
    amountPaise: 100n,
    state: 'acknowledged',
  });
  const firstLoadAck = () =>
    sent.filter((r) => r.state === 'acknowledged' && r.answeredAt! > promotedAt).length > 0;
  await progress('load after the promotion');
  if (!firstLoadAck()) fail('no load request was acknowledged after the promotion');
  if (writableAfterMs > WRITABLE_WITHIN_MS)
    fail(`writable again ${writableAfterMs} ms after the promotion, not within ${WRITABLE_WITHIN_MS} ms`);
  stop.now = true;
  await load;

  // The killed server comes back; the books, the enrolments, on every live server.
  await startServer(0, databaseUrl);
  await checkLedger([...transferPeople, ...palmPeople, ...tills]);
  if (enrolments.acknowledged === 0) fail('no enrolment was acknowledged');
  const checkTill = tills[SIZE.tills]!;
  for (const i of [0, 1]) {
    for (const { person, identity } of enrolled) {
      const paid = await palmPay(direct(i), checkTill, identity, 100n).send(counts);
      if (paid.status !== 200)
        fail(
          `the acknowledged enrolment of ${person.email} does not pay on api-${i + 1}: ${paid.status} ${String(paid.body.message)}`,
        );
    }
  }

  // Across the two servers, directly on their ports: A is the restarted one, B the survivor.
  const [A, B] = [direct(0), direct(1)];
  const crossPayer = palmPeople[SIZE.palms]!;
  const crossIdentity = 26_900;
  const enrolledOnA = await enrol(A, crossPayer, crossIdentity, counts);
  if (enrolledOnA?.status !== 200)
    fail(`enrolment on A: ${enrolledOnA?.status} ${JSON.stringify(enrolledOnA?.body)}`);
  const enrolAt = performance.now();
  const payOnB = () =>
    signedScanCall(B, checkTill, '/Palm/authenticate', palmPay(B, checkTill, crossIdentity, 100n).body, {
      'idempotency-key': randomUUID(),
    });
  const enrolSeen = await seenWithin(
    'enrolled on A, paid on B',
    enrolAt,
    payOnB,
    (a) => a.status === 200,
    ATTEMPT_EVERY_MS.palm,
  );

  const withdrawn = await call(A, '/api/consent/withdraw', {}, bearer(crossPayer.token));
  if (withdrawn?.status !== 200) fail(`consent withdrawal on A: ${withdrawn?.status}`);
  const withdrawAt = performance.now();
  const withdrawSeen = await seenWithin(
    'consent withdrawn on A, refused on B',
    withdrawAt,
    payOnB,
    (a) => a.status === 400 && a.body.message === messages.palmNotRecognised,
    ATTEMPT_EVERY_MS.palm,
  );

  // A second session of one person, used on B (its cached path: a transfer without a code is refused 403).
  const revoker = palmPeople[SIZE.palms + 1]!;
  const other = await signIn(B, revoker.email, counts);
  const transferOnB = () =>
    call(
      B,
      '/api/transfer',
      { receiverEmail: checkTill.email, amount: 1 },
      {
        ...bearer(other),
        'idempotency-key': randomUUID(),
      },
    );
  const beforeRevoke = await transferOnB();
  if (beforeRevoke?.status !== 403) fail(`a transfer without a code on B: ${beforeRevoke?.status}`);
  const otherSession = (await findSession(database.db, other))!.sessionId;
  const revoked = await call(A, `/api/sessions/${otherSession}/revoke`, {}, bearer(revoker.token));
  if (revoked?.status !== 200) fail(`session revocation on A: ${revoked?.status}`);
  const revokeAt = performance.now();
  const revokeSeen = await seenWithin(
    'session revoked on A, refused on B',
    revokeAt,
    transferOnB,
    (a) => a.status === 401,
    ATTEMPT_EVERY_MS.session,
  );

  const transfers = sent.filter((r) => r.kind === 'transfer');
  const payments = sent.filter((r) => r.kind === 'palm');
  const refusedPayments = payments.filter((r) => r.state === 'refused');
  console.log(
    `failover test${SHORT ? ' (short)' : ''}: passed in ${Math.round((performance.now() - startedAt) / 1000)} s — ` +
      `${counts.signIns} sign-ins; ${transfers.length} transfers (${acknowledged('transfer')} acknowledged, ${transfers.length - acknowledged('transfer')} refused), ` +
      `${payments.length} palm payments (${acknowledged('palm')} acknowledged, ${refusedPayments.length} refused${refusedPayments.length ? `: ${[...new Set(refusedPayments.map((r) => r.message))].join(', ')}` : ''}), ` +
      `all acknowledged present exactly once, the books balance; ` +
      `${enrolments.acknowledged} enrolments acknowledged, each paying on both servers (${enrolments.refused} refused, ${enrolments.givenUp} given up: step-up sends used up); ` +
      `${counts.unavailable} answers 503 with Retry-After and ${counts.lost} lost answers, ${counts.retries} resends in all; ` +
      `API server killed at ${serverKilledWith} transfers, primary killed at ${primaryKilledWith} acknowledged writes; ` +
      `writable again ${writableAfterMs} ms after the promotion (target ${WRITABLE_TARGET_MS} ms: ${writableAfterMs <= WRITABLE_TARGET_MS ? 'met' : 'not met'}); ` +
      `A→B (sent at / answered at, ms): enrolment paid ${enrolSeen.join('/')}, withdrawal refused ${withdrawSeen.join('/')}, revoked session refused ${revokeSeen.join('/')} ` +
      `(target: sent within ${PROPAGATION_TARGET_MS} ms: ${[enrolSeen, withdrawSeen, revokeSeen].every(([sentAt]) => sentAt <= PROPAGATION_TARGET_MS) ? 'met' : 'not met'})`,
  );
  await finish(0);
}

main().catch((error: unknown) => {
  if (finishing) return;
  console.error(
    `failover test FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  void finish(1);
});
