import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/auth/sessions';
import { openDatabase, type Database } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { auditLedger } from '../src/ledger/ledger';
import { bearer } from './support/auth-helpers';
import { openFundedAccounts } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 25, a standby: a PostgreSQL primary and its synchronous standby (scripts/pg-cluster.sh) behind a
 * DATABASE_URL naming both. Under transfer load the primary is killed (pg_ctl -m immediate) and the standby
 * promoted: meanwhile every request is answered 200 or 503 with Retry-After (never a 500), the server finds
 * the promoted standby by itself within 10 s of the promotion, every acknowledged transfer is on it exactly
 * once, and the books balance.
 */

const run = promisify(execFile);
const CLUSTER_SCRIPT = new URL('../../../scripts/pg-cluster.sh', import.meta.url).pathname;
const PEOPLE = 6;
const OPENING_PAISE = 10_000_000n;
const CLIENTS = 6;
const VERIFICATIONS_PER_PERSON = 400;
const WRITABLE_AGAIN_WITHIN_MS = 10_000;

/** Polls a condition (no fixed sleeps): resolves once it holds, throws after `timeoutMs`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ports the kernel just handed out, so the two PostgreSQL servers collide with nobody's. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function cluster(command: 'start' | 'kill-primary' | 'promote' | 'stop', dir: string, ...args: string[]) {
  return run('bash', [CLUSTER_SCRIPT, command, dir, ...args], {
    env: { ...process.env, PG_CLUSTER_FSYNC: 'off' },
    timeout: 120_000,
  });
}

if (testDatabaseKind === 'pglite') {
  describe('failover on pglite', () => {
    it('has one embedded database and no hosts to fail over between', async () => {
      const test = await buildTestApp();
      try {
        expect(await test.database.topology({ refresh: true })).toBeNull();
        const health = await test.app.inject({ method: 'GET', url: '/api/health' });
        expect(health.statusCode).toBe(200);
        expect(health.json()).toEqual({ status: 'ok', database: 'pglite' });
      } finally {
        await test.close();
      }
    });
  });
} else {
  describe('failover to a synchronous standby on postgres', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hasta-failover-'));
    let primary = '';
    let standby = '';
    let test: TestApp;
    let database: Database;
    const primaryChanges: Array<string | null> = [];

    beforeAll(async () => {
      const [primaryPort, standbyPort] = await freePorts(2);
      primary = `127.0.0.1:${primaryPort}`;
      standby = `127.0.0.1:${standbyPort}`;
      const { stdout } = await cluster('start', dir, String(primaryPort), String(standbyPort));
      const url = stdout.trim().split('\n').at(-1)!;
      expect(url).toBe(`postgres://postgres@${primary},${standby}/postgres`);
      database = await openDatabase({
        databaseUrl: url,
        dataDir: '',
        onIdleConnectionError: () => {},
        onPrimaryChange: (now) => primaryChanges.push(now),
      });
      await migrate(database);
      test = await buildTestApp({
        database: {
          database,
          drop: async () => {
            await database.close();
            await cluster('stop', dir);
          },
        },
        // The background rounds stay out of the way: the requests are what is measured here.
        env: {
          LOG_SEQUENCE_INTERVAL_MS: '0',
          LEDGER_EXPIRY_INTERVAL_MS: '0',
          RATE_LIMIT_PER_MINUTE: '1000000',
        },
      });
    });

    afterAll(async () => {
      if (test) await test.close();
      else await cluster('stop', dir);
    });

    it('says which host is the primary and that the other is its synchronous standby', async () => {
      const health = await test.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({
        status: 'ok',
        database: 'postgres',
        primary,
        hosts: [
          { address: primary, role: 'primary' },
          { address: standby, role: 'standby' },
        ],
      });
      const replication = await sql<{ application_name: string; sync_state: string }>`
        SELECT application_name, sync_state FROM pg_stat_replication`.execute(database.db);
      expect(replication.rows).toEqual([{ application_name: 'hasta_standby', sync_state: 'sync' }]);
      const commit = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(database.db);
      expect(commit.rows[0]!.synchronous_commit).toBe('on');
    });

    it('answers 503 with Retry-After while no host is writable, then writes on the promoted standby within 10 s, losing no acknowledged transfer', async () => {
      const db = database.db;
      const accounts = await openFundedAccounts(db, test.app.ledger, PEOPLE, OPENING_PAISE);
      const owners = await db
        .selectFrom('ledger_accounts')
        .innerJoin('users', 'users.id', 'ledger_accounts.user_id')
        .select(['ledger_accounts.id as account', 'users.id as user', 'users.email as email'])
        .where('ledger_accounts.id', 'in', accounts)
        .execute();
      const people = await Promise.all(
        accounts.map(async (account) => {
          const owner = owners.find((row) => row.account === account)!;
          const { token, sessionId } = await createSession(db, owner.user);
          // Verified codes written ahead, as if each sender had just entered one before each transfer.
          await sql`
            INSERT INTO verifications (token_hash, identifier, purpose, session_id, expires_at)
            SELECT gen_random_uuid()::text, ${owner.email}, 'transfer', ${sessionId}, now() + interval '10 minutes'
            FROM generate_series(1, ${VERIFICATIONS_PER_PERSON}::int)`.execute(db);
          return { account, email: owner.email!, token };
        }),
      );

      interface Sent {
        key: string;
        from: number;
        to: number;
        startedAtMs: number;
        /** 'unavailable': answered 503 (with Retry-After): not acknowledged, sent again at the end. */
        state: 'pending' | 'acknowledged' | 'unavailable';
        transactionId?: string;
      }
      const sent: Sent[] = [];
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];

      const send = async (request: Sent) => {
        const response = await test.app.inject({
          method: 'POST',
          url: '/api/transfer',
          headers: { ...bearer(people[request.from]!.token), 'idempotency-key': request.key },
          payload: { receiverEmail: people[request.to]!.email, amount: 1 },
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode === 200) {
          request.state = 'acknowledged';
          request.transactionId = response.json<{ transaction: { id: string } }>().transaction.id;
        } else if (response.statusCode === 503) {
          request.state = 'unavailable';
          if (!/^[1-9][0-9]*$/.test(String(response.headers['retry-after'])))
            unexpected.push(`503 without Retry-After: ${JSON.stringify(response.headers)}`);
          if (response.json<{ code: string }>().code !== 'UNAVAILABLE')
            unexpected.push(`503 answered ${response.body}`);
        } else {
          unexpected.push(`${response.statusCode} ${response.body}`);
        }
      };

      let figures = '';
      const stop = { now: false };
      const load = Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let i = 0; !stop.now; i += 1) {
            const request: Sent = {
              key: randomUUID(),
              from: client % PEOPLE,
              to: (client + 1 + (i % (PEOPLE - 1))) % PEOPLE,
              startedAtMs: Date.now(),
              state: 'pending',
            };
            sent.push(request);
            await send(request);
            // A refused client waits as Retry-After asks, scaled down: the test measures the server.
            if (request.state === 'unavailable') await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }),
      );
      const acknowledged = () => sent.filter((request) => request.state === 'acknowledged');

      try {
        await until('transfers acknowledged on the first primary', () => acknowledged().length >= 30);
        await cluster('kill-primary', dir);
        const killedAtMs = Date.now();
        const acknowledgedBeforeKill = acknowledged().filter((r) => r.startedAtMs < killedAtMs).length;

        // Meanwhile: refused with 503 and Retry-After, and the health check says no host is writable.
        await until('a transfer refused with 503', () =>
          sent.some((request) => request.state === 'unavailable' && request.startedAtMs > killedAtMs),
        );
        const health = await test.app.inject({ method: 'GET', url: '/api/health' });
        expect(health.statusCode).toBe(503);
        expect(health.headers['retry-after']).toBe('2');
        expect(health.json()).toEqual({
          status: 'unavailable',
          database: 'postgres',
          primary: null,
          hosts: [
            { address: primary, role: 'unreachable' },
            { address: standby, role: 'standby' },
          ],
        });

        await cluster('promote', dir);
        const promotedAtMs = Date.now();
        await until(
          'a transfer acknowledged by the promoted standby',
          () => acknowledged().some((request) => request.startedAtMs >= promotedAtMs),
          WRITABLE_AGAIN_WITHIN_MS,
        );
        const writableAfterMs =
          Math.min(
            ...acknowledged()
              .filter((request) => request.startedAtMs >= promotedAtMs)
              .map((request) => request.startedAtMs),
          ) - promotedAtMs;
        expect(writableAfterMs).toBeLessThan(WRITABLE_AGAIN_WITHIN_MS);
        expect(acknowledgedBeforeKill).toBeGreaterThanOrEqual(30);
        figures = `primary killed with ${acknowledgedBeforeKill} transfers acknowledged; no writable host for ${promotedAtMs - killedAtMs} ms (until the promotion returned); writable again ${writableAfterMs} ms after it`;
      } finally {
        stop.now = true;
        await load;
      }

      // Every request refused meanwhile is sent again with its key, as a client would: now acknowledged.
      const refused = sent.filter((request) => request.state === 'unavailable');
      expect(refused.length).toBeGreaterThan(0);
      for (const request of refused) await send(request);
      expect(unexpected).toEqual([]);
      expect([...statuses.keys()].sort()).toEqual([200, 503]);
      expect(sent.every((request) => request.state === 'acknowledged')).toBe(true);

      // On the promoted standby: each acknowledged transfer exactly once, nothing else, and the books balance.
      const ids = acknowledged().map((request) => request.transactionId!);
      expect(new Set(ids).size).toBe(sent.length);
      const stored = await db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('kind', '=', 'transfer')
        .execute();
      expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());
      expect(await auditLedger(db)).toEqual([]);
      const balances = await db
        .selectFrom('ledger_accounts')
        .select(['id', 'credits_posted', 'debits_posted'])
        .where('id', 'in', accounts)
        .execute();
      for (const [index, person] of people.entries()) {
        const sentPaise = BigInt(sent.filter((request) => request.from === index).length) * 100n;
        const receivedPaise = BigInt(sent.filter((request) => request.to === index).length) * 100n;
        const row = balances.find((balance) => balance.id === person.account)!;
        expect(row.credits_posted - row.debits_posted).toBe(OPENING_PAISE - sentPaise + receivedPaise);
      }

      const after = await test.app.inject({ method: 'GET', url: '/api/health' });
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({ status: 'ok', primary: standby });
      expect(primaryChanges).toEqual([primary, null, standby]);
      console.info(
        `failover: ${figures}; ${sent.length} transfers acknowledged in all (${refused.length} of them after a 503 and a resend), each stored once, the books balance`,
      );
    });
  });
}
