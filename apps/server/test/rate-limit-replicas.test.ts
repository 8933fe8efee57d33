import { createHash } from 'node:crypto';
import { messages } from '@hasta/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import type { Database } from '../src/db/database';
import { countHit, pruneCounters } from '../src/rate-limits/rate-limit-repository';
import { bearer, registerUser } from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import {
  buildTestAppOn,
  createTestDatabase,
  testDatabaseKind,
  type TestApp,
  type TestDatabase,
} from './support/test-app';

/**
 * The attack: the palm calls' limits, the sign-in's per-client limit and the public posts' ("Not me" links)
 * were counted in each server process's memory, so behind a load balancer with two processes a client got
 * twice every limit by spreading its calls (decision 033's consequence). Two servers on one database here: on
 * PostgreSQL two pools, as two processes have; on PGlite (one process by nature) two server instances on the
 * one database, which keep their in-memory counters apart just as two processes do.
 */
describe(`rate limits across two server processes on ${testDatabaseKind}`, () => {
  let shared: TestDatabase;
  let second: Database;
  let a: TestApp;
  let b: TestApp;
  let nextAddress = 1;
  const freshAddress = () => `10.34.0.${(nextAddress += 1)}`;
  // The API's limit at 300 a minute: its share for a public post is 10 a minute, for a sign-in 20.
  const ENV = { RATE_LIMIT_PER_MINUTE: '300', PALM_NEW_ENROLMENT_HOLD_HOURS: '0' };

  beforeAll(async () => {
    shared = await createTestDatabase();
    await migrate(shared.database);
    a = await buildTestAppOn(shared.database, { env: ENV });
    second = shared.openAgain ? await shared.openAgain() : shared.database;
    b = await buildTestAppOn(second, { env: ENV });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (second && second !== shared.database) await second.close();
    await shared?.drop();
  });

  const limited = (answer: { statusCode: number; json(): { message?: string } }) =>
    answer.statusCode === 429 && answer.json().message === messages.rateLimited;
  /** The i-th call goes to A when i is even, to B when odd. */
  const onProcess = (i: number) => (i % 2 === 0 ? a.app : b.app);
  /** A palm call that searches nothing: cancelling a payment nobody made (404 when not limited). */
  const cancel = (i: number, token: string, remoteAddress: string) =>
    injectScan(onProcess(i), {
      method: 'POST',
      url: '/Palm/authenticate/cancel',
      payload: { payment_id: crypto.randomUUID() },
      headers: bearer(token),
      remoteAddress,
    });

  it('counts one session’s palm calls once, whichever process takes them (20 a minute, not 40)', async () => {
    const receiver = await registerUser(a.app, a.database);
    const answers = [];
    for (let i = 0; i < 30; i += 1) {
      // Every call from a client address of its own, so only the session's limit can stop them.
      answers.push(await cancel(i, receiver.token, freshAddress()));
    }
    const searched = answers.filter((answer) => !limited(answer));
    expect(searched).toHaveLength(20);
    expect(searched.every((answer) => answer.statusCode === 404)).toBe(true);
  });

  it('counts one client’s palm calls once across processes, whoever signs them', async () => {
    const receivers = await Promise.all(Array.from({ length: 3 }, () => registerUser(a.app, a.database)));
    const remoteAddress = freshAddress();
    const answers = [];
    for (let i = 0; i < 30; i += 1) {
      answers.push(await cancel(i, receivers[i % 3]!.token, remoteAddress));
    }
    expect(answers.filter((answer) => !limited(answer))).toHaveLength(20);
  });

  it('counts guesses at a "Not me" link once across processes (10 a minute per client)', async () => {
    const remoteAddress = freshAddress();
    const answers = [];
    for (let i = 0; i < 16; i += 1) {
      answers.push(
        await onProcess(i).inject({
          method: 'POST',
          url: '/api/palm/not-me',
          payload: { token: `guess-${i}-${'x'.repeat(40)}` },
          remoteAddress,
        }),
      );
    }
    const tried = answers.filter((answer) => !limited(answer));
    expect(tried).toHaveLength(10);
    expect(tried.every((answer) => answer.statusCode >= 400 && answer.statusCode < 500)).toBe(true);
    // The database keeps the SHA-256 of the client's address, never the address.
    const rows = await a.database.db.selectFrom('rate_limit_counters').selectAll().execute();
    const hashed = createHash('sha256').update(remoteAddress).digest('hex');
    expect(rows.filter((row) => row.key_hash === hashed).map((row) => row.counter)).toEqual([
      'POST /api/palm/not-me',
    ]);
    expect(JSON.stringify(rows)).not.toContain('10.34.0.');
  });

  it('counts sign-in attempts from one client once across processes (20 a minute)', async () => {
    const remoteAddress = freshAddress();
    const answers = [];
    // The limit counts every attempt before its body is read. Most attempts here are malformed (refused at
    // once), so that the 30 fit in the limit's minute on a busy machine: a password's hash can take seconds.
    for (let i = 0; i < 30; i += 1) {
      const email = i % 5 === 0 ? `nobody-${i}@example.com` : `nobody-${i}`;
      answers.push(
        await onProcess(i).inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: 'not-the-password-1A!' },
          remoteAddress,
        }),
      );
    }
    expect(answers.filter((answer) => !limited(answer))).toHaveLength(20);
    expect(answers.every((answer) => answer.statusCode >= 400 && answer.statusCode < 500)).toBe(true);
  });
});

describe(`the shared counters on ${testDatabaseKind}`, () => {
  let shared: TestDatabase;
  beforeAll(async () => {
    shared = await createTestDatabase();
    await migrate(shared.database);
  });
  afterAll(async () => shared?.drop());

  it('count within a window, start again at 1 once it has passed, and are pruned only then', async () => {
    const db = shared.database.db;
    const hit = (keyHash: string) => countHit(db, { counter: 'test', keyHash, windowMs: 60_000 });
    expect(await hit('live')).toMatchObject({ hits: 1 });
    const second = await hit('live');
    expect(second.hits).toBe(2);
    expect(second.ttlMs).toBeGreaterThan(0);
    expect(second.ttlMs).toBeLessThanOrEqual(60_000);
    // A counter whose window began two minutes ago.
    await hit('old');
    await hit('old');
    await db
      .updateTable('rate_limit_counters')
      .set({ window_started_at: sql<Date>`statement_timestamp() - interval '2 minutes'` })
      .where('key_hash', '=', 'old')
      .execute();
    expect(await pruneCounters(db)).toBe(1);
    expect(await hit('old')).toMatchObject({ hits: 1 });
    expect(await hit('live')).toMatchObject({ hits: 3 });
    await db
      .updateTable('rate_limit_counters')
      .set({ window_started_at: sql<Date>`statement_timestamp() - interval '61 seconds'` })
      .where('key_hash', '=', 'live')
      .execute();
    expect(await hit('live')).toMatchObject({ hits: 1 });
  });
});
