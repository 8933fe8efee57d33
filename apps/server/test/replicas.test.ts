import { randomUUID } from 'node:crypto';
import { messages } from '@hasta/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/secrets';
import { findSession } from '../src/auth/sessions';
import { migrate } from '../src/db/migrate';
import { ChangeFeed } from '../src/replicas/change-feed';
import { ChangePruner } from '../src/replicas/change-pruner';
import { currentCursor } from '../src/replicas/change-repository';
import { bearer, registerUser, signInAsAdmin, uniqueEmail } from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { palmSupply, registerPalm } from './support/palm-helpers';
import {
  buildTestApp,
  buildTestAppOn,
  createTestDatabase,
  RAISED_PALM_RATE_LIMITS,
  testDatabaseKind,
  type TestApp,
  type TestDatabase,
} from './support/test-app';

/**
 * Issue 25 asks a change on one replica to reach the others within 1 s, and the work that must run once to be
 * taken over within 5 s. How fast they are is a figure (`npm run bench:replicas` measures the propagation
 * against its target; the times here are printed): on a busy machine these tests check only that the change
 * arrives, and the takeover happens, while the processes run (not at a restart), with loose bounds.
 */
const PROPAGATION_MS = 15_000;
const TAKEOVER_MS = 30_000;

const ENV = {
  RATE_LIMIT_PER_MINUTE: '30000',
  PALM_NEW_ENROLMENT_HOLD_HOURS: '0',
  ...RAISED_PALM_RATE_LIMITS,
};

/**
 * Waits for `condition` by polling it (never a fixed sleep) and answers how long it took from `since`; fails
 * the test when it holds only later than `withinMs` from `since`, or not at all.
 */
async function within(
  withinMs: number,
  condition: () => boolean | Promise<boolean>,
  since = performance.now(),
): Promise<number> {
  for (;;) {
    const elapsed = performance.now() - since;
    if (await condition()) {
      if (elapsed > withinMs)
        throw new Error(`${elapsed} ms, not within ${withinMs}: ${condition.toString()}`);
      return elapsed;
    }
    if (elapsed > withinMs) throw new Error(`not within ${withinMs} ms: ${condition.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

if (testDatabaseKind === 'pglite') {
  describe('one server process on pglite', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await buildTestApp({ env: ENV });
    });
    afterAll(async () => test?.close());

    it('keeps no change feed and holds no election: the embedded database has one process', async () => {
      expect(test.app.replicas).toBeNull();
      // The work that must run once runs here, from the start, as it always did.
      expect(test.app.pendingExpiry.running).toBe(true);
      // A change still reaches this process's own gallery at once.
      const { token } = await registerUser(test.app, test.database);
      const before = test.app.palm.gallerySize;
      const { newIdentity, freshScan } = palmSupply(25_000);
      expect((await registerPalm(test.app, token, 'left', freshScan(newIdentity()))).statusCode).toBe(200);
      expect(test.app.palm.gallerySize).toBe(before + 1);
      // The change triggers write here too (one migration for both databases); this process prunes them.
      const changes = () => test.database.db.selectFrom('replica_changes').select('user_id').execute();
      expect(await changes()).not.toHaveLength(0);
      const pruner = new ChangePruner(test.database.db, () => {});
      await pruner.prune();
      await pruner.prune();
      expect(await changes()).toHaveLength(0);
    });
  });
} else {
  describe('two server processes on one postgres database', () => {
    let shared: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let adminToken: string;
    const { newIdentity, freshScan } = palmSupply(25_100);
    const post = (on: TestApp, url: string, token: string | undefined, payload: object, headers = {}) =>
      injectScan(on.app, {
        method: 'POST',
        url,
        payload,
        headers: { ...(token ? bearer(token) : {}), ...headers },
      });
    const give = (userId: string, amount: number) =>
      post(a, '/api/assignBalance', adminToken, { userId, amount });
    const propagated: Record<string, number> = {};

    /** A payer with an enrolled palm (enrolled on A) and money, and a receiver taking payments anywhere. */
    async function payerAndReceiver() {
      const email = uniqueEmail('payer');
      const payer = await registerUser(a.app, a.database, { email });
      const receiver = await registerUser(a.app, a.database, { username: 'Shop Keeper' });
      await give(payer.user.id, 1_000);
      const identity = newIdentity();
      const pay = (on: TestApp, amount = 10) =>
        post(
          on,
          '/Palm/authenticate',
          receiver.token,
          { amount, scan: freshScan(identity) },
          { 'idempotency-key': randomUUID() },
        );
      return { payer, email, receiver, identity, pay };
    }

    beforeAll(async () => {
      shared = await createTestDatabase();
      await migrate(shared.database);
      a = await buildTestAppOn(shared.database, { env: ENV });
      // Its own pool, as a second process would have.
      b = await buildTestAppOn(await shared.openAgain!(), { env: ENV });
      adminToken = await signInAsAdmin(a.app, a.database);
    });
    const closed = new Set<TestApp>();
    const closeOnce = async (test: TestApp | undefined) => {
      if (!test || closed.has(test)) return;
      closed.add(test);
      await test.close();
    };
    afterAll(async () => {
      await closeOnce(a);
      await closeOnce(b);
      await b?.database.close();
      await shared?.drop();
      // What each change took to reach the other process, for the record.
      console.info('cross-replica propagation (ms):', propagated);
    });

    it('a palm enrolled on A pays on B while both run; consent withdrawn on A is refused on B', async () => {
      const { payer, identity, pay } = await payerAndReceiver();
      const before = b.app.palm.gallerySize;
      expect((await registerPalm(a.app, payer.token, 'right', freshScan(identity))).statusCode).toBe(200);
      // From A's answer on: what a till on B sees once the person is told they are enrolled.
      const enrolledAt = performance.now();
      propagated.enrolment = await within(
        PROPAGATION_MS,
        () => b.app.palm.gallerySize === before + 1,
        enrolledAt,
      );
      const paid = await pay(b);
      expect([paid.statusCode, paid.json().message]).toEqual([200, messages.authenticationSuccessful]);

      expect((await post(a, '/api/consent/withdraw', payer.token, {})).statusCode).toBe(200);
      const withdrawnAt = performance.now();
      propagated.withdrawal = await within(
        PROPAGATION_MS,
        () => b.app.palm.gallerySize === before,
        withdrawnAt,
      );
      const refused = await pay(b);
      expect([refused.statusCode, refused.json().message]).toEqual([400, messages.palmNotRecognised]);

      // Consent given again on B pays on A; erased on B, refused on A.
      expect((await post(b, '/api/consent/restore', payer.token, {})).statusCode).toBe(200);
      const restoredAt = performance.now();
      propagated.restore = await within(
        PROPAGATION_MS,
        () => a.app.palm.gallerySize === before + 1,
        restoredAt,
      );
      expect((await pay(a)).statusCode).toBe(200);
      expect((await post(b, '/api/consent/erase', payer.token, {})).statusCode).toBe(200);
      const erasedAt = performance.now();
      propagated.erasure = await within(PROPAGATION_MS, () => a.app.palm.gallerySize === before, erasedAt);
      expect((await pay(a)).json().message).toBe(messages.palmNotRecognised);
    });

    it('palm pay paused ("Not me") on A is refused on B at once', async () => {
      const { payer, email, identity, pay } = await payerAndReceiver();
      const before = b.app.palm.gallerySize;
      expect((await registerPalm(a.app, payer.token, 'right', freshScan(identity))).statusCode).toBe(200);
      await within(PROPAGATION_MS, () => b.app.palm.gallerySize === before + 1);
      expect((await pay(b)).statusCode).toBe(200);
      const bodies = await a.database.db
        .selectFrom('outbox_messages')
        .select('body')
        .where('to_address', '=', email)
        .orderBy('id', 'desc')
        .execute();
      const notMe = bodies.flatMap((row) => /\/not-me\?token=([A-Za-z0-9_-]+)/.exec(row.body)?.[1] ?? [])[0];
      expect((await post(a, '/api/palm/not-me', undefined, { token: notMe })).statusCode).toBe(200);
      const refused = await pay(b);
      expect([refused.statusCode, refused.json().message]).toEqual([403, messages.palmPayFrozen]);
    });

    it('a session revoked on A is forgotten by B’s session cache and refused there', async () => {
      const { token, user, password } = await registerUser(a.app, a.database);
      const login = await post(a, '/api/auth/login', undefined, { email: user.email, password });
      const other = login.json().token as string;
      const otherSession = (await findSession(a.database.db, other))!.sessionId;
      // B looks the session up on its cached path (a transfer without a code: refused, the session cached).
      const transfer = () =>
        post(
          b,
          '/api/transfer',
          other,
          { receiverEmail: uniqueEmail(), amount: 1 },
          {
            'idempotency-key': randomUUID(),
          },
        );
      expect((await transfer()).statusCode).toBe(403);
      expect(b.app.sessionCache.get(hashToken(other))).toBeDefined();

      expect((await post(a, `/api/sessions/${otherSession}/revoke`, token, {})).statusCode).toBe(200);
      const revokedAt = performance.now();
      propagated.sessionRevocation = await within(
        PROPAGATION_MS,
        () => b.app.sessionCache.get(hashToken(other)) === undefined,
        revokedAt,
      );
      expect((await transfer()).statusCode).toBe(401);
      expect((await b.app.inject({ url: '/api/auth/session', headers: bearer(other) })).statusCode).toBe(401);

      // A password changed on A ends the other sessions on B too.
      const third = (await post(a, '/api/auth/login', undefined, { email: user.email, password })).json()
        .token as string;
      const thirdTransfer = () =>
        post(
          b,
          '/api/transfer',
          third,
          { receiverEmail: uniqueEmail(), amount: 1 },
          {
            'idempotency-key': randomUUID(),
          },
        );
      expect((await thirdTransfer()).statusCode).toBe(403);
      expect(b.app.sessionCache.get(hashToken(third))).toBeDefined();
      const changed = await post(a, '/api/auth/change-password', token, {
        originalPassword: password,
        newPassword: 'another horse battery',
      });
      expect(changed.statusCode).toBe(200);
      const changedAt = performance.now();
      propagated.passwordChange = await within(
        PROPAGATION_MS,
        () => b.app.sessionCache.get(hashToken(third)) === undefined,
        changedAt,
      );
      expect((await thirdTransfer()).statusCode).toBe(401);
    });

    it('catches up a change whose notice it missed: listener dropped, or stopped and started again', async () => {
      const replicas = b.app.replicas!;
      // The listening connection is ended under B (as a network cut would): B listens again by itself.
      const pid = replicas.feed.listenerPid;
      expect(pid).not.toBeNull();
      await sql`SELECT pg_terminate_backend(${pid})`.execute(a.database.db);
      await within(
        TAKEOVER_MS,
        () => replicas.feed.listenerPid !== null && replicas.feed.listenerPid !== pid,
      );

      // B stops following (no notice, no timer); a palm is enrolled on A; B starts again and catches up.
      await replicas.feed.stop();
      const { payer, identity, pay } = await payerAndReceiver();
      const before = b.app.palm.gallerySize;
      expect((await registerPalm(a.app, payer.token, 'left', freshScan(identity))).statusCode).toBe(200);
      expect(b.app.palm.gallerySize).toBe(before);
      await replicas.feed.start();
      expect(b.app.palm.gallerySize).toBe(before + 1);
      expect((await pay(b)).statusCode).toBe(200);
    });

    it('reads a change whose transaction commits after a later one’s: by transaction, not by number', async () => {
      const first = await payerAndReceiver();
      const before = b.app.palm.gallerySize;
      expect(
        (await registerPalm(a.app, first.payer.token, 'right', freshScan(first.identity))).statusCode,
      ).toBe(200);
      await within(PROPAGATION_MS, () => b.app.palm.gallerySize === before + 1);

      // A withdrawal takes its place in the feed first, and commits last.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const slow = a.database.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('palm_consents')
          .set({ withdrawn_at: new Date() })
          .where('user_id', '=', first.payer.user.id)
          .where('withdrawn_at', 'is', null)
          .execute();
        written();
        await held;
      });
      await wrote;
      const second = await payerAndReceiver();
      expect(
        (await registerPalm(a.app, second.payer.token, 'left', freshScan(second.identity))).statusCode,
      ).toBe(200);
      // B has read past the later change…
      await within(PROPAGATION_MS, () => b.app.palm.gallerySize === before + 2);
      release();
      await slow;
      const committedAt = performance.now();
      // …and still reads the earlier one when it commits.
      propagated.lateCommit = await within(
        PROPAGATION_MS,
        () => b.app.palm.gallerySize === before + 1,
        committedAt,
      );
      expect((await first.pay(b)).json().message).toBe(messages.palmNotRecognised);
      expect((await second.pay(b)).statusCode).toBe(200);
    });

    it('reads everything again after too long without a read or too many changes, and prunes what all have read', async () => {
      const db = a.database.db;
      let clock = 0;
      const seen = { palms: [] as string[], sessions: 0, everything: 0 };
      const feed = new ChangeFeed(
        db,
        a.database.openDedicated!,
        {
          palms: async (userIds) => void seen.palms.push(...userIds),
          sessions: () => void (seen.sessions += 1),
          everything: async () => void (seen.everything += 1),
        },
        { onError: () => {}, now: () => clock, maxChangesPerRead: 2, rereadAllAfterMs: 60_000 },
      );
      await feed.start();
      // A transaction older than every change below stays open throughout (another replica's, say): the
      // feed's cursor cannot pass it, so what was read comes back in every read and must not count again.
      const older = await a.database.openDedicated!();
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      try {
        const { payer } = await payerAndReceiver();
        const sessionChange = () =>
          sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${payer.user.id} AND revoked_at IS NULL`.execute(
            db,
          );
        await sessionChange();
        await feed.catchUp();
        expect(seen).toEqual({ palms: [], sessions: 1, everything: 0 });
        // More changes than a read takes: everything is read again instead.
        // (one statement: no read can come between them)
        await db
          .insertInto('replica_changes')
          .values(
            [randomUUID(), randomUUID(), randomUUID()].map((user_id) => ({ kind: 'palm' as const, user_id })),
          )
          .execute();
        await feed.catchUp();
        expect(seen).toEqual({ palms: [], sessions: 1, everything: 1 });
        // Too long since the last read (changes may have been pruned meanwhile): everything again.
        clock += 60_001;
        await feed.catchUp();
        expect(seen.everything).toBe(2);
        await db.insertInto('replica_changes').values({ kind: 'palm', user_id: payer.user.id }).execute();
        await feed.catchUp();
        expect(seen).toEqual({ palms: [payer.user.id], sessions: 1, everything: 2 });
        // Read again with nothing new: nothing handled again, nothing read in full.
        await feed.catchUp();
        expect(seen).toEqual({ palms: [payer.user.id], sessions: 1, everything: 2 });
      } finally {
        await older.query('ROLLBACK');
        await older.close();
        await feed.stop();
      }

      // The pruner deletes, each round, what had finished by the round before, and nothing newer.
      const left = async (where: (xid: string) => boolean) =>
        (await db.selectFrom('replica_changes').select(['xid', 'user_id']).execute()).filter((row) =>
          where(row.xid),
        );
      const pruner = new ChangePruner(db, () => {});
      const before = await currentCursor(db);
      expect(await pruner.prune()).toBe(0);
      const later = randomUUID();
      await db.insertInto('replica_changes').values({ kind: 'palm', user_id: later }).execute();
      await pruner.prune();
      expect(await left((xid) => BigInt(xid) < before.xmin)).toHaveLength(0);
      expect((await left(() => true)).map((row) => row.user_id)).toContain(later);
    });

    it('runs the work that must run once on one replica, and the other takes it over', async () => {
      const leaders = () => [a, b].filter((t) => t.app.replicas!.leadership.isLeader);
      await within(TAKEOVER_MS, () => leaders().length === 1);
      const [leader] = leaders();
      const follower = leader === a ? b : a;
      expect(leader!.app.pendingExpiry.running).toBe(true);
      expect(follower.app.pendingExpiry.running).toBe(false);

      // The leader's lock connection dies (its process killed, its machine gone): the other takes over.
      const lostAt = performance.now();
      await sql`SELECT pg_terminate_backend(${leader!.app.replicas!.leadership.lockPid})`.execute(
        follower.database.db,
      );
      propagated.takeoverAfterLostConnection = await within(
        TAKEOVER_MS,
        () => follower.app.replicas!.leadership.isLeader,
        lostAt,
      );
      expect(follower.app.pendingExpiry.running).toBe(true);
      await within(TAKEOVER_MS, () => !leader!.app.replicas!.leadership.isLeader);
      expect(leader!.app.pendingExpiry.running).toBe(false);
      expect(leaders()).toHaveLength(1);
      expect(leaders()[0]).toBe(follower);
    });

    it('a third replica started after the changes builds the same gallery, and takes over when the leader closes', async () => {
      const c = await buildTestAppOn(await shared.openAgain!(), { env: ENV });
      try {
        expect(c.app.palm.gallerySize).toBe(a.app.palm.gallerySize);
        expect(c.app.replicas!.leadership.isLeader).toBe(false);
        const leader = [a, b].find((t) => t.app.replicas!.leadership.isLeader)!;
        const other = leader === a ? b : a;
        const closedAt = performance.now();
        await closeOnce(leader);
        propagated.takeoverAfterClose = await within(
          TAKEOVER_MS,
          () => other.app.replicas!.leadership.isLeader || c.app.replicas!.leadership.isLeader,
          closedAt,
        );
        expect([other, c].filter((t) => t.app.replicas!.leadership.isLeader)).toHaveLength(1);
      } finally {
        await c.close();
        await c.database.close();
      }
    });
  });
}
