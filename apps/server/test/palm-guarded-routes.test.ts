import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  lastCode,
  lastMessage,
  registerUser,
  signInAsAdmin,
  uniquePhone,
} from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { palmSupply, registerPalm } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 21: every route through which a palm moves money or is enrolled, each held to the four guards —
 * the palm-alone limits, the payer's (or owner's) notice, the "Not me" freeze and the replay guard. A guard
 * that does not apply to a route says why. The last test fails when the API gains such a route (one that
 * takes a palm scan, or carries the `palm-guarded` tag) that is not on this list.
 */

type Guard = 'limits' | 'notice' | 'freeze' | 'replay';
type Check = (() => Promise<void>) | { notApplicable: string };

const SOME_ID = '00000000-0000-4000-8000-000000000000';

describe(`routes through which a palm pays or enrols, on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const { newIdentity, freshScan } = palmSupply(4000);
  const post = (url: string, token: string | undefined, payload: object, key?: string) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...(token ? bearer(token) : {}), ...(key ? { 'idempotency-key': key } : {}) },
    });
  const balanceOf = async (token: string) =>
    (await test.app.inject({ method: 'GET', url: '/api/dashboard', headers: bearer(token) })).json().user
      .balance as string;
  const expectStatus = (response: LightMyRequestResponse, status: number) =>
    expect(response.statusCode, response.body).toBe(status);

  /** A person with a phone, ₹20,000 and (unless told otherwise) a registered right palm. */
  async function payer(options: { palm?: boolean } = {}) {
    const phone = uniquePhone();
    const person = await registerUser(test.app, test.database, { phone });
    const identity = newIdentity();
    let enrolmentScan: PalmScan | undefined;
    if (options.palm !== false) {
      enrolmentScan = freshScan(identity);
      expectStatus(await registerPalm(test.app, person.token, 'right', enrolmentScan), 200);
    }
    expectStatus(
      await post('/api/assignBalance', adminToken, { userId: person.user.id, amount: 20_000 }),
      200,
    );
    return { ...person, phone, identity, enrolmentScan };
  }
  type Payer = Awaited<ReturnType<typeof payer>>;

  /** Who takes a palm payment: a person at /receive, or a store's owner at Accept Palm. */
  let person: { token: string };
  let store: { token: string };
  const byPalm = (url: '/Palm/authenticate' | '/api/transaction') => (scan: PalmScan, amount: number) =>
    post(url, url === '/api/transaction' ? store.token : person.token, { amount, scan }, crypto.randomUUID());

  /** "Not me" on a palm payment from the payer's History: palm pay is paused at once. */
  async function freezeBy(who: Payer, transactionId: string) {
    expectStatus(await post('/api/palm/disputes', who.token, { transaction_id: transactionId }), 200);
  }

  /** The four guards of a route that takes a palm payment. */
  function paymentChecks(pay: ReturnType<typeof byPalm>): Record<Guard, Check> {
    return {
      // PALM_HOURLY_PAYMENTS is 1 here: the second palm-alone payment of the hour waits for the code.
      limits: async () => {
        const p = await payer();
        expectStatus(await pay(freshScan(p.identity), 10), 200);
        const second = await pay(freshScan(p.identity), 10);
        expectStatus(second, 202);
        expect(second.json().confirmation.reason).toBe('hourly');
        expect(await balanceOf(p.token)).toBe('19990.00');
      },
      notice: async () => {
        const p = await payer();
        expectStatus(await pay(freshScan(p.identity), 12.5), 200);
        const notice = await lastMessage(test.database, p.phone);
        expect(notice.body).toContain('₹12.50 paid by your palm');
        expect(notice.body).toMatch(/Not me\? \S+\/not-me\?token=[A-Za-z0-9_-]{43}/);
      },
      freeze: async () => {
        const p = await payer();
        const paid = await pay(freshScan(p.identity), 10);
        expectStatus(paid, 200);
        await freezeBy(p, paid.json().transaction.id);
        const after = await pay(freshScan(p.identity), 10);
        expectStatus(after, 403);
        expect(after.json().message).toBe(messages.palmPayFrozen);
        expect(await balanceOf(p.token)).toBe('19990.00');
      },
      replay: async () => {
        const p = await payer();
        const scan = freshScan(p.identity);
        expectStatus(await pay(scan, 10), 200);
        const copy = await pay(scan, 10);
        expectStatus(copy, 400);
        expect(copy.json().message).toBe(messages.palmNotRecognised);
        // The enrolment's own frames are no better than a copy.
        expectStatus(await pay(p.enrolmentScan!, 10), 400);
        expect(await balanceOf(p.token)).toBe('19990.00');
      },
    };
  }

  /** A palm payment above the palm limit, waiting for the payer's code, taken by a person. */
  async function waitingPayment() {
    const p = await payer();
    const started = await byPalm('/Palm/authenticate')(freshScan(p.identity), 6000);
    expectStatus(started, 202);
    const code = await lastCode(test.database, p.phone);
    const confirm = () =>
      post('/Palm/authenticate/confirm', person.token, {
        payment_id: started.json().confirmation.id,
        otp: code,
      });
    return { p, confirm };
  }

  /** An admin scans `scan` for `owner` (spec §2.17): a request the owner approves with their code. */
  async function adminRequest(owner: Payer, hand: 'left' | 'right', scan: PalmScan) {
    const started = await post('/Palm/register', adminToken, {
      user_id: owner.user.id,
      admin_mode: true,
      which_hand: hand,
      consent: true,
      scan,
    });
    expectStatus(started, 202);
    return { id: started.json().request.id as string, code: await lastCode(test.database, owner.phone) };
  }

  const PALM_GUARDED_ROUTES: { route: string; checks: Record<Guard, Check> }[] = [
    { route: 'POST /Palm/authenticate', checks: paymentChecks(byPalm('/Palm/authenticate')) },
    { route: 'POST /api/transaction', checks: paymentChecks(byPalm('/api/transaction')) },
    {
      route: 'POST /Palm/authenticate/confirm',
      checks: {
        limits: { notApplicable: 'it is how a payment past a limit goes through: with the payer’s own code' },
        notice: async () => {
          const { p, confirm } = await waitingPayment();
          expectStatus(await confirm(), 200);
          const notice = await lastMessage(test.database, p.phone);
          expect(notice.body).toContain('₹6,000.00 paid by your palm');
          expect(notice.body).toMatch(/Not me\? \S+\/not-me\?token=/);
        },
        freeze: async () => {
          const { p, confirm } = await waitingPayment();
          // Paused while the payment waits (as "Not me" does, before it voids the waiting payments).
          await test.database.db
            .insertInto('palm_pay_freezes')
            .values({ user_id: p.user.id, reason: 'not_me' })
            .execute();
          const refused = await confirm();
          expect(refused.statusCode).toBeGreaterThanOrEqual(400);
          expect(await balanceOf(p.token)).toBe('20000.00');
        },
        replay: { notApplicable: 'it takes no scan: the scan was checked when the payment started' },
      },
    },
    {
      route: 'POST /Palm/register',
      checks: {
        // The guard of an enrolment is its owner's fresh step-up (and a daily allowance of searches).
        limits: async () => {
          const p = await payer({ palm: false });
          const refused = await post('/Palm/register', p.token, {
            which_hand: 'left',
            consent: true,
            scan: freshScan(p.identity),
          });
          expectStatus(refused, 403);
          expect(refused.json().message).toBe(messages.stepUpRequired);
        },
        notice: async () => {
          const p = await payer();
          const notice = await lastMessage(test.database, p.phone);
          expect(notice.body).toContain('A palm was registered on your Hasta account');
        },
        freeze: async () => {
          const p = await payer();
          const paid = await byPalm('/Palm/authenticate')(freshScan(p.identity), 10);
          await freezeBy(p, paid.json().transaction.id);
          // A hand registered while palm pay is paused pays nothing either.
          const other = newIdentity();
          expectStatus(await registerPalm(test.app, p.token, 'left', freshScan(other)), 200);
          expectStatus(await byPalm('/Palm/authenticate')(freshScan(other), 10), 403);
        },
        replay: async () => {
          const p = await payer();
          expectStatus(await byPalm('/Palm/authenticate')(p.enrolmentScan!, 10), 400);
          expectStatus(await byPalm('/Palm/authenticate')(freshScan(p.identity), 10), 200);
        },
      },
    },
    {
      route: `POST /Palm/enrolment-requests/${SOME_ID}/approve`,
      checks: {
        // Only the owner's own session with the owner's code completes it: not the admin, even with the code.
        limits: async () => {
          const owner = await payer({ palm: false });
          const { id, code } = await adminRequest(owner, 'right', freshScan(owner.identity));
          const byAdmin = await post(`/Palm/enrolment-requests/${id}/approve`, adminToken, { otp: code });
          expect(byAdmin.statusCode).toBeGreaterThanOrEqual(400);
          expect((await byAdmin.json()).success).not.toBe(true);
          expectStatus(await post(`/Palm/enrolment-requests/${id}/approve`, owner.token, { otp: code }), 200);
        },
        notice: async () => {
          const owner = await payer({ palm: false });
          const { id, code } = await adminRequest(owner, 'right', freshScan(owner.identity));
          expectStatus(await post(`/Palm/enrolment-requests/${id}/approve`, owner.token, { otp: code }), 200);
          const notice = await lastMessage(test.database, owner.phone);
          expect(notice.body).toContain('A palm was registered on your Hasta account');
        },
        freeze: async () => {
          const owner = await payer();
          const paid = await byPalm('/Palm/authenticate')(freshScan(owner.identity), 10);
          await freezeBy(owner, paid.json().transaction.id);
          const other = newIdentity();
          const { id, code } = await adminRequest(owner, 'left', freshScan(other));
          expectStatus(await post(`/Palm/enrolment-requests/${id}/approve`, owner.token, { otp: code }), 200);
          expectStatus(await byPalm('/Palm/authenticate')(freshScan(other), 10), 403);
        },
        replay: async () => {
          const owner = await payer({ palm: false });
          const scan = freshScan(owner.identity);
          const { id, code } = await adminRequest(owner, 'right', scan);
          expectStatus(await post(`/Palm/enrolment-requests/${id}/approve`, owner.token, { otp: code }), 200);
          expectStatus(await byPalm('/Palm/authenticate')(scan, 10), 400);
        },
      },
    },
  ];

  beforeAll(async () => {
    test = await buildTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '30000',
        ...RAISED_PALM_RATE_LIMITS,
        PALM_HOURLY_PAYMENTS: '1',
        PALM_NEW_ENROLMENT_HOLD_HOURS: '0',
      },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    person = await registerUser(test.app, test.database);
    store = await approvedMerchant(test.app, test.database, adminToken);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  const cases = PALM_GUARDED_ROUTES.flatMap(({ route, checks }) =>
    (Object.entries(checks) as [Guard, Check][]).map(([guard, check]) => ({ route, guard, check })),
  );
  it.each(cases)('$route: $guard', async ({ check }) => {
    if (typeof check === 'function') await check();
    else expect(check.notApplicable.length).toBeGreaterThan(20);
  });

  it('lists every route that takes a palm scan or is tagged palm-guarded', async () => {
    const spec = (await test.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          {
            tags?: string[];
            requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
          }
        >
      >;
    }>();
    const guarded = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(
          ([, operation]) =>
            operation.tags?.includes('palm-guarded') ||
            operation.requestBody?.content?.['application/json']?.schema?.properties?.scan !== undefined,
        )
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, SOME_ID)}`),
    );
    expect(guarded.sort()).toEqual(PALM_GUARDED_ROUTES.map(({ route }) => route).sort());
    // And each listed route carries the tag, so a new route of its kind is found the same way.
    for (const { route } of PALM_GUARDED_ROUTES) {
      const [method, path] = route.split(' ') as [string, string];
      const documented = Object.entries(spec.paths).find(
        ([p]) => p.replace(/\{[^}]+\}/g, SOME_ID) === path,
      )?.[1][method.toLowerCase()];
      expect(documented?.tags, route).toContain('palm-guarded');
    }
  });
});
