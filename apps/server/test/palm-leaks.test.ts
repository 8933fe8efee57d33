import { messages } from '@hasta/contracts/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../src/env';
import {
  bearer,
  lastCode,
  passCooldown,
  registerUser,
  signInAsAdmin,
  uniqueEmail,
  uniquePhone,
} from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { registerPalm, scanOf } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Dozens of palm searches (1,029 alignments each) in one test: 20-30 s on an idle machine, and several times
 * that on a busy one. A longer bound costs nothing when the test passes.
 */
const HEAVY_PALM_TEST = { timeout: 240_000 };

/**
 * Who learns what about whom (issue 21, item 5): a palm payment's receiver and a store see a masked payer,
 * never the payer's email or phone; Send Money's first answer does not tell which addresses have accounts;
 * and palm calls, which search every enrolled palm, are rate limited per client, per session and per account.
 */

/** Each scan of a palm is a fresh capture: never the same frames twice (a copy is a replay). */
const samplesTaken = new Map<number, number>();
function freshScan(identity: number) {
  const first = samplesTaken.get(identity) ?? 0;
  samplesTaken.set(identity, first + 3);
  return scanOf(identity, [first, first + 1, first + 2]);
}

/** What a receiver sees of a payer's email: its first letter and its domain's first letter. */
function maskedEmail(email: string): string {
  const at = email.indexOf('@');
  return `${email[0]}•••@${email[at + 1]}•••`;
}

/** Palm pay without a code, whatever the new-enrolment hold's default: these tests are about answers. */
const NO_ENROLMENT_HOLD = { PALM_NEW_ENROLMENT_HOLD_HOURS: '0' };

function client(app: FastifyInstance) {
  return {
    post: (url: string, token: string | undefined, payload: object, extra: object = {}) =>
      injectScan(app, { method: 'POST', url, payload, headers: token ? bearer(token) : {}, ...extra }),
    get: (url: string, token: string) => app.inject({ method: 'GET', url, headers: bearer(token) }),
  };
}

describe(`identity leaks on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  let http: ReturnType<typeof client>;
  let nextIdentity = 100;

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', ...RAISED_PALM_RATE_LIMITS, ...NO_ENROLMENT_HOLD },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    http = client(test.app);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  /** A person with a palm on their right hand and money in their wallet. */
  async function palmPayer(contact: { email?: string; phone?: string }, rupees: number) {
    const payer = await registerUser(test.app, test.database, { ...contact, username: 'Asha Verma' });
    const identity = (nextIdentity += 1);
    const enrolled = await registerPalm(test.app, payer.token, 'right', freshScan(identity));
    expect(enrolled.statusCode).toBe(200);
    const funded = await http.post('/api/assignBalance', adminToken, {
      userId: payer.user.id,
      amount: rupees,
    });
    expect(funded.statusCode).toBe(200);
    return { ...payer, identity, address: (contact.email ?? contact.phone)! };
  }

  it('shows a palm payment’s receiver a masked payer, in the answer, the histories and after a reversal', async () => {
    const email = uniqueEmail('asha');
    const payer = await palmPayer({ email }, 20_000);
    const receiver = await registerUser(test.app, test.database);

    const paid = await http.post('/Palm/authenticate', receiver.token, {
      amount: 120,
      scan: freshScan(payer.identity),
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).not.toContain(email);
    expect(paid.json().transaction).toMatchObject({
      direction: 'received',
      from_user_email: maskedEmail(email),
      from_user_name: 'A.',
    });

    // Above the palm limit the payment waits for the payer's code; the confirmed answer is masked too.
    const waiting = await http.post('/Palm/authenticate', receiver.token, {
      amount: 6000,
      scan: freshScan(payer.identity),
    });
    expect(waiting.statusCode).toBe(202);
    expect(waiting.body).not.toContain(email);
    // Where the code went, as the receiver sees it: no more of the address than anywhere else.
    expect(waiting.json().confirmation.sent_to).toBe(maskedEmail(email));
    const confirmed = await http.post('/Palm/authenticate/confirm', receiver.token, {
      payment_id: waiting.json().confirmation.id,
      otp: await lastCode(test.database, email),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).not.toContain(email);
    expect(confirmed.json().transaction.from_user_email).toBe(maskedEmail(email));

    // An admin takes the first payment back: the reversal names the payer as its receiver, masked as well.
    const reversed = await test.app.inject({
      method: 'DELETE',
      url: `/api/transaction/${paid.json().transaction.id}`,
      headers: bearer(adminToken),
    });
    expect(reversed.statusCode).toBe(200);

    const history = await http.get('/api/transaction/history', receiver.token);
    const dashboard = await http.get('/api/dashboard', receiver.token);
    const older = await http.get('/api/dashboard/history', receiver.token);
    for (const seen of [history, dashboard, older]) {
      expect(seen.statusCode).toBe(200);
      expect(seen.body).not.toContain(email);
    }
    const records = history.json().transactions as { from_user_email: string; to_user_email: string }[];
    expect(records).toHaveLength(3);
    expect(records.filter((r) => r.from_user_email === maskedEmail(email))).toHaveLength(2);
    expect(records.filter((r) => r.to_user_email === maskedEmail(email))).toHaveLength(1);
    const entries = dashboard.json().user.user_history as { sender: string; receiver: string }[];
    expect(
      entries.filter((e) => e.sender === maskedEmail(email) || e.receiver === maskedEmail(email)),
    ).toHaveLength(3);

    // The payer sees their own address; an admin sees everyone's.
    const own = await http.get('/api/transaction/history', payer.token);
    expect(
      own.json().transactions.filter((r: { from_user_email: string }) => r.from_user_email === email),
    ).toHaveLength(2);
    const asAdmin = await http.get(`/api/transaction/history?userId=${receiver.user.id}`, adminToken);
    expect(asAdmin.body).toContain(email);
    const adminDashboard = await http.get(`/api/dashboard?userId=${receiver.user.id}`, adminToken);
    expect(adminDashboard.body).toContain(email);
  });

  it('shows a store a masked payer, by phone as well, in the answer and its payments', async () => {
    const phone = uniquePhone();
    const payer = await palmPayer({ phone }, 1_000);
    const store = await approvedMerchant(test.app, test.database, adminToken);

    const paid = await http.post('/api/transaction', store.token, {
      amount: 75,
      scan: freshScan(payer.identity),
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).not.toContain(phone);
    expect(paid.json().transaction).toMatchObject({
      from_user_email: `••••${phone.slice(-4)}`,
      from_user_name: 'A.',
    });
    // A merchant's /Palm/authenticate takes the payment into the store too.
    const byPalmRoute = await http.post('/Palm/authenticate', store.token, {
      amount: 25,
      scan: freshScan(payer.identity),
    });
    expect(byPalmRoute.statusCode).toBe(200);
    expect(byPalmRoute.body).not.toContain(phone);

    const payments = await http.get('/api/merchant/payments', store.token);
    expect(payments.statusCode).toBe(200);
    expect(payments.body).not.toContain(phone);
    expect(payments.json().payments).toEqual([
      expect.objectContaining({ amount: '25.00', customer: `••••${phone.slice(-4)}`, customer_name: 'A.' }),
      expect.objectContaining({ amount: '75.00', customer: `••••${phone.slice(-4)}`, customer_name: 'A.' }),
    ]);
    for (const url of ['/api/transaction/history', '/api/dashboard', '/api/merchant/summary']) {
      expect((await http.get(url, store.token)).body).not.toContain(phone);
    }
  });

  it('answers Send Money the same before the code step whether or not an address has an account', async () => {
    const phone = uniquePhone();
    const sender = await registerUser(test.app, test.database, { phone });
    await http.post('/api/assignBalance', adminToken, { userId: sender.user.id, amount: 100 });
    const receiver = await registerUser(test.app, test.database);
    const send = (receiverEmail: string) =>
      http.post('/api/transfer', sender.token, { receiverEmail, amount: 5 });

    const known = await send(receiver.user.email!);
    const unknown = await send(uniqueEmail('nobody'));
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect([known.statusCode, known.json().message]).toEqual([403, messages.transferVerificationRequired]);

    // After the code step an unknown receiver is refused with the spec's message, and the code is not spent.
    await passCooldown(test.database, phone);
    expect((await http.post('/api/send-sms-otp', sender.token, { phone })).statusCode).toBe(200);
    const otp = await lastCode(test.database, phone);
    expect((await http.post('/api/verify-sms-otp', sender.token, { phone, otp })).statusCode).toBe(200);
    const nobody = await send(uniqueEmail('nobody'));
    expect([nobody.statusCode, nobody.json().message]).toEqual([404, messages.receiverNotFound]);
    const sent = await send(receiver.user.email!);
    expect(sent.statusCode).toBe(200);
    // Spent: the next transfer needs a new code, to anyone.
    const again = await send(uniqueEmail('nobody'));
    expect(again.json()).toEqual(known.json());
  });
});

describe(`palm rate limits on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  let http: ReturnType<typeof client>;
  let nextIdentity = 300;
  let nextAddress = 1;
  /** A client address of its own per test, so the per-client counts of one test never reach another. */
  const freshAddress = () => `10.21.0.${(nextAddress += 1)}`;

  beforeAll(async () => {
    // The palm limits at their defaults except the account's, lowered so one test reaches it quickly.
    test = await buildTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '30000',
        PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: '30',
        ...NO_ENROLMENT_HOLD,
      },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    http = client(test.app);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  /** Whether a response is the palm limit's refusal (429, the catalogue's message, a Retry-After). */
  function rateLimited(response: { statusCode: number; json(): { message?: string }; headers: object }) {
    if (response.statusCode !== 429 || response.json().message !== messages.rateLimited) return false;
    const retryAfter = Number((response.headers as Record<string, string>)['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    return true;
  }

  it(
    'limits palm payments from one client: of 40 in a minute, 20 are searched',
    HEAVY_PALM_TEST,
    async () => {
      const payer = await registerUser(test.app, test.database);
      const identity = (nextIdentity += 1);
      const remoteAddress = freshAddress();
      const enrolled = await registerPalm(test.app, payer.token, 'right', freshScan(identity));
      expect(enrolled.statusCode).toBe(200);
      await http.post('/api/assignBalance', adminToken, { userId: payer.user.id, amount: 1000 });
      const receivers = await Promise.all(
        Array.from({ length: 4 }, () => registerUser(test.app, test.database)),
      );
      const answers = [];
      for (let i = 0; i < 40; i += 1) {
        // Four receivers, ten each: neither the session's nor the account's limit is what stops them.
        answers.push(
          await http.post(
            '/Palm/authenticate',
            receivers[i % 4]!.token,
            { amount: 1, scan: freshScan(identity) },
            { remoteAddress },
          ),
        );
      }
      const processed = answers.filter((answer) => !rateLimited(answer));
      expect(processed).toHaveLength(20);
      // The client's other palm calls are limited with them; another client is not.
      expect(
        rateLimited(await http.post('/api/transaction', receivers[0]!.token, {}, { remoteAddress })),
      ).toBe(true);
      const elsewhere = await http.post(
        '/Palm/authenticate',
        receivers[0]!.token,
        { amount: 1, scan: freshScan(identity) },
        { remoteAddress: freshAddress() },
      );
      expect(rateLimited(elsewhere)).toBe(false);
    },
  );

  it('limits one session across clients, and one account across sessions', HEAVY_PALM_TEST, async () => {
    const receiver = await registerUser(test.app, test.database);
    const cancel = (token: string) =>
      http.post(
        '/Palm/authenticate/cancel',
        token,
        { payment_id: crypto.randomUUID() },
        { remoteAddress: freshAddress() },
      );
    const session = [];
    for (let i = 0; i < 25; i += 1) session.push(await cancel(receiver.token));
    expect(session.filter((answer) => !rateLimited(answer))).toHaveLength(20);
    expect(session[0]!.statusCode).toBe(404);

    // New sessions of the same account: 10 more calls reach its 30 an hour, whatever the session.
    const tokens = [];
    for (let i = 0; i < 3; i += 1) {
      const login = await test.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: receiver.user.email, password: receiver.password },
        remoteAddress: freshAddress(),
      });
      expect(login.statusCode).toBe(200);
      tokens.push(login.json().token as string);
    }
    const account = [];
    for (let i = 0; i < 15; i += 1) account.push(await cancel(tokens[i % 3]!));
    expect(account.filter((answer) => !rateLimited(answer))).toHaveLength(10);
    // Someone else is not affected.
    const other = await registerUser(test.app, test.database);
    expect(rateLimited(await cancel(other.token))).toBe(false);
  });
});

describe(`palm rate limits cover every palm route on ${testDatabaseKind}`, () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await buildTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '30000',
        PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1',
        PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE: '1',
        PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: '1',
      },
    });
  });
  afterAll(async () => test?.close());

  it('has real defaults, and a bad value stops the server with one clear line', () => {
    expect(parseEnv({})).toMatchObject({
      PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE: 20,
      PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE: 20,
      PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: 120,
    });
    for (const key of [
      'PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE',
      'PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE',
      'PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR',
    ]) {
      expect(() => parseEnv({ [key]: '0' })).toThrow(EnvError);
      expect(() => parseEnv({ [key]: 'many' })).toThrow(new RegExp(`^Invalid environment: ${key} `));
    }
  });

  it('limits every palm call the API documents (each /Palm/* write and a store’s POST /api/transaction)', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const calls = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'get' && method !== 'head')
        .filter(() => path.startsWith('/Palm/') || path === '/api/transaction')
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(
      expect.arrayContaining([
        'POST /Palm/register',
        'POST /Palm/authenticate',
        'POST /Palm/authenticate/confirm',
        'POST /Palm/authenticate/cancel',
        'POST /api/transaction',
      ]),
    );
    let address = 0;
    for (const call of calls) {
      const url = call.path.replace(/\{[^}]+\}/g, crypto.randomUUID());
      const remoteAddress = `10.31.0.${(address += 1)}`;
      const send = () => test.app.inject({ method: call.method as 'POST', url, payload: {}, remoteAddress });
      await send();
      const second = await send();
      expect([call.path, second.statusCode, second.json().message]).toEqual([
        call.path,
        429,
        messages.rateLimited,
      ]);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
