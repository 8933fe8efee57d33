import { messages } from '@hasta/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EnvError, parseEnv } from '../src/env';
import { NOTICE_RETRY_AFTER_MS } from '../src/palm/palm-payment-notice';
import {
  bearer,
  lastCode,
  registerUser,
  signInAsAdmin,
  uniqueEmail,
  uniquePhone,
} from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { palmSupply, registerPalm } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Dozens of palm searches (1,029 alignments each) in one test: 20-30 s on an idle machine, and several times
 * that on a busy one. A longer bound costs nothing when the test passes.
 */
const HEAVY_PALM_TEST = { timeout: 240_000 };

/**
 * Issue 21: a palm must not be a bearer credential that drains a wallet ₹5,000 at a time. Palm-alone payments
 * have per-payer limits (per payment, per rolling hour, per rolling day) and a hold after enrolment, enforced
 * in the payment's own transaction; past any of them the payment waits for the payer's code.
 */
describe(`palm pay limits on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const { newIdentity, freshScan } = palmSupply(900);
  const post = (url: string, token: string | undefined, payload: object, headers = {}) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  const give = (userId: string, amount: number) => post('/api/assignBalance', adminToken, { userId, amount });

  /** A person with a palm and money, the palm enrolled long enough ago that the new-enrolment hold is over. */
  async function payerWithPalm(rupees: number, options: { phone?: string; aged?: boolean } = {}) {
    const payer = await registerUser(test.app, test.database, options.phone ? { phone: options.phone } : {});
    const identity = newIdentity();
    const registered = await registerPalm(test.app, payer.token, 'right', freshScan(identity));
    expect(registered.statusCode).toBe(200);
    if (options.aged !== false) {
      await test.database.db
        .updateTable('palm_templates')
        .set({ created_at: new Date(Date.now() - 3 * 24 * 3_600_000) })
        .where('user_id', '=', payer.user.id)
        .execute();
    }
    await give(payer.user.id, rupees);
    return { ...payer, identity };
  }
  const pay = (receiverToken: string, identity: number, amount: number, key: string) =>
    post(
      '/Palm/authenticate',
      receiverToken,
      { amount, scan: freshScan(identity) },
      { 'idempotency-key': key },
    );
  const balanceOf = async (token: string) =>
    (await test.app.inject({ method: 'GET', url: '/api/dashboard', headers: bearer(token) })).json().user
      .balance as string;
  const messagesTo = async (address: string) =>
    test.database.db
      .selectFrom('outbox_messages')
      .select('body')
      .where('to_address', '=', address)
      .orderBy('id')
      .execute();

  /** The "Not me?" tokens in the notices sent to `address`, oldest first. */
  const notMeTokens = async (address: string) =>
    (await messagesTo(address)).flatMap((message) => {
      const token = /\/not-me\?token=([A-Za-z0-9_-]+)/.exec(message.body)?.[1];
      return token ? [token] : [];
    });
  const preview = (token: string) => post('/api/palm/not-me/preview', undefined, { token });
  /** Moves this payer's palm payments back in time, as if `ms` had passed. */
  const agePayments = (payerUserId: string, ms: number) =>
    test.database.db
      .updateTable('palm_payments')
      .set({ created_at: sql<Date>`created_at - ${`${ms} milliseconds`}::interval` })
      .where('payer_user_id', '=', payerUserId)
      .execute();

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000', ...RAISED_PALM_RATE_LIMITS } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('does not let one palm take ₹5,000 three times in a row without a code, and tells the payer', async () => {
    const phone = uniquePhone();
    const payer = await payerWithPalm(20_000, { phone });
    const receiver = await registerUser(test.app, test.database);
    const answers = [];
    for (let i = 0; i < 3; i += 1)
      answers.push(await pay(receiver.token, payer.identity, 5000, `drain-${i}`));
    // The first is within every limit; the day's ₹5,000 is then used up: the others wait for the payer's code.
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 202, 202]);
    expect(answers[1]!.json().message).toBe(messages.palmCodeSentPhone);
    expect(await balanceOf(payer.token)).toBe('15000.00');
    expect(await balanceOf(receiver.token)).toBe('5000.00');
    // The payer heard of the payment that went through, with a way to say it was not them.
    const sent = await messagesTo(phone);
    expect(sent.some((message) => /Not me\? \S+\/not-me\?token=[A-Za-z0-9_-]{43}/.test(message.body))).toBe(
      true,
    );
  });

  it(
    'never lets 10 concurrent palm payments of one payer pass more than the limits palm-alone',
    HEAVY_PALM_TEST,
    async () => {
      const receiver = await registerUser(test.app, test.database);
      // ₹1,500 each: the rolling day's ₹5,000 lets 3 through. ₹10 each: the hour's 5 payments let 5 through.
      for (const [amount, most] of [
        [1500, 3],
        [10, 5],
      ] as const) {
        const payer = await payerWithPalm(20_000);
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            pay(receiver.token, payer.identity, amount, `burst-${amount}-${i}`),
          ),
        );
        const paid = answers.filter((answer) => answer.statusCode === 200).length;
        expect(paid).toBe(most);
        // The rest wait for the payer's code (at most 3 codes in 10 minutes), or are refused for too many codes.
        for (const answer of answers.filter((a) => a.statusCode !== 200))
          expect([202, 429]).toContain(answer.statusCode);
        const payerAccount = await test.app.ledger.ensureUserAccount(payer.user.id);
        const account = await test.app.ledger.account(payerAccount);
        expect(account!.debitsPosted).toBe(BigInt(amount * 100 * most));
      }
    },
  );

  it('waits for the code above the per-payment limit, past the hour’s 5 palm-alone payments, until an hour passed', async () => {
    const payer = await payerWithPalm(20_000);
    const receiver = await registerUser(test.app, test.database);
    const big = await pay(receiver.token, payer.identity, 5000.01, 'one-big');
    expect([big.statusCode, big.json().confirmation.reason]).toEqual([202, 'amount']);
    for (let i = 0; i < 5; i += 1)
      expect((await pay(receiver.token, payer.identity, 10, `hour-${i}`)).statusCode).toBe(200);
    const sixth = await pay(receiver.token, payer.identity, 10, 'hour-5');
    expect([sixth.statusCode, sixth.json().confirmation.reason]).toEqual([202, 'hourly']);
    // The same key again is that waiting payment (not a palm-alone one).
    const again = await pay(receiver.token, payer.identity, 10, 'hour-5');
    expect([again.statusCode, again.json().confirmation.id]).toEqual([202, sixth.json().confirmation.id]);
    await agePayments(payer.user.id, 61 * 60_000);
    expect((await pay(receiver.token, payer.identity, 10, 'next-hour')).statusCode).toBe(200);
  });

  it('waits for the code once the rolling day’s ₹5,000 is used, until 24 hours passed', async () => {
    const payer = await payerWithPalm(20_000);
    const receiver = await registerUser(test.app, test.database);
    expect((await pay(receiver.token, payer.identity, 4000, 'day-1')).statusCode).toBe(200);
    const over = await pay(receiver.token, payer.identity, 1000.01, 'day-2');
    expect([over.statusCode, over.json().confirmation.reason]).toEqual([202, 'daily']);
    expect((await pay(receiver.token, payer.identity, 1000, 'day-3')).statusCode).toBe(200);
    await agePayments(payer.user.id, 23 * 3_600_000);
    expect((await pay(receiver.token, payer.identity, 1, 'day-4')).json().confirmation.reason).toBe('daily');
    await agePayments(payer.user.id, 3_600_000 + 1000);
    expect((await pay(receiver.token, payer.identity, 5000, 'day-5')).statusCode).toBe(200);
  });

  it('lets a palm enrolled less than PALM_NEW_ENROLMENT_HOLD_HOURS ago pay only with the code', async () => {
    const payer = await payerWithPalm(20_000, { aged: false });
    const receiver = await registerUser(test.app, test.database);
    const fresh = await pay(receiver.token, payer.identity, 1, 'hold-1');
    expect([fresh.statusCode, fresh.json().confirmation.reason]).toEqual([202, 'new_palm']);
    await test.database.db
      .updateTable('palm_templates')
      .set({ created_at: new Date(Date.now() - 23 * 3_600_000) })
      .where('user_id', '=', payer.user.id)
      .execute();
    expect((await pay(receiver.token, payer.identity, 1, 'hold-2')).json().confirmation.reason).toBe(
      'new_palm',
    );
    await test.database.db
      .updateTable('palm_templates')
      .set({ created_at: new Date(Date.now() - 24 * 3_600_000 - 60_000) })
      .where('user_id', '=', payer.user.id)
      .execute();
    expect((await pay(receiver.token, payer.identity, 1, 'hold-3')).statusCode).toBe(200);
  });

  it('tells the payer of every palm payment that moves money, with a working one-time link', async () => {
    const email = uniqueEmail('payer');
    const payer = await registerUser(test.app, test.database, { email });
    const identity = newIdentity();
    await registerPalm(test.app, payer.token, 'left', freshScan(identity));
    await test.database.db
      .updateTable('palm_templates')
      .set({ created_at: new Date(Date.now() - 3 * 24 * 3_600_000) })
      .where('user_id', '=', payer.user.id)
      .execute();
    await give(payer.user.id, 20_000);
    const merchant = await approvedMerchant(test.app, test.database, adminToken, 'Notice Mart');
    const person = await registerUser(test.app, test.database, { username: 'Ravi Kumar' });

    // Palm alone, to a store: the notice names the store, the amount and the time in India.
    const atStore = await post(
      '/api/transaction',
      merchant.token,
      { amount: 120.5, scan: freshScan(identity) },
      { 'idempotency-key': 'store-1', 'user-agent': 'Till 7 (Android 14)' },
    );
    expect(atStore.statusCode).toBe(200);
    const [storeNotice] = (await messagesTo(email)).filter((m) => m.body.includes('paid by your palm'));
    expect(storeNotice!.body).toMatch(
      /^Hasta: ₹120\.50 paid by your palm to Notice Mart on \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} [ap]m IST\. Not me\? http:\/\/localhost(:\d+)?\/not-me\?token=[A-Za-z0-9_-]{43}$/,
    );
    const [storeToken] = await notMeTokens(email);
    const shown = await preview(storeToken!);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      amount: '120.50',
      payee: 'Notice Mart',
      created_at: atStore.json().transaction.created_at,
    });
    // Only the token's hash is kept.
    const stored = await test.database.db.selectFrom('palm_payment_notices').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(storeToken);
    const device = await test.database.db
      .selectFrom('palm_payments')
      .select('device')
      .where('transfer_id', '=', atStore.json().transaction.id)
      .executeTakeFirstOrThrow();
    expect(device.device).toBe('Till 7 (Android 14)');

    // With the payer's code: no notice while it waits, one when it is confirmed, naming the person.
    const waiting = await post(
      '/Palm/authenticate',
      person.token,
      { amount: 6000, scan: freshScan(identity) },
      { 'idempotency-key': 'coded-1' },
    );
    expect(waiting.statusCode).toBe(202);
    expect(await notMeTokens(email)).toHaveLength(1);
    const code = await lastCode(test.database, email);
    const confirmed = await post('/Palm/authenticate/confirm', person.token, {
      payment_id: waiting.json().confirmation.id,
      otp: code,
    });
    expect(confirmed.statusCode).toBe(200);
    const tokens = await notMeTokens(email);
    expect(tokens).toHaveLength(2);
    expect((await messagesTo(email)).at(-1)!.body).toContain('₹6,000.00 paid by your palm to Ravi Kumar on ');
    expect((await preview(tokens[1]!)).json()).toMatchObject({ amount: '6000.00', payee: 'Ravi Kumar' });
    // A token that was never issued is no link.
    expect((await preview('A'.repeat(43))).json().message).toBe(messages.notMeLinkInvalid);
  });

  it('keeps a palm payment whose notice could not be sent, and sends the notice again in the expiry round', async () => {
    const phone = uniquePhone();
    const payer = await payerWithPalm(1000, { phone });
    const receiver = await registerUser(test.app, test.database);
    const send = vi.spyOn(test.messenger, 'send').mockRejectedValueOnce(new Error('gateway down'));
    let paid;
    try {
      paid = await pay(receiver.token, payer.identity, 100, 'unsent-1');
    } finally {
      send.mockRestore();
    }
    expect(paid.statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('900.00');
    expect(await notMeTokens(phone)).toHaveLength(0);
    expect(test.logs()).toContain('palm payment notice not sent; the expiry round sends it again');
    // Not before its retry time, then once, with a working token.
    await test.app.pendingExpiry.runOnce();
    expect(await notMeTokens(phone)).toHaveLength(0);
    await test.app.pendingExpiry.runOnce(new Date(Date.now() + NOTICE_RETRY_AFTER_MS + 1000));
    const tokens = await notMeTokens(phone);
    expect(tokens).toHaveLength(1);
    expect((await preview(tokens[0]!)).json()).toMatchObject({ amount: '100.00' });
    await test.app.pendingExpiry.runOnce(new Date(Date.now() + 10 * NOTICE_RETRY_AFTER_MS));
    expect(await notMeTokens(phone)).toHaveLength(1);
  });

  it('refuses limits that make no sense at boot, with a clear line', () => {
    const env = { NODE_ENV: 'test', PALM_MAX_PAYMENT_PAISE: '500000' };
    expect(() => parseEnv({ ...env, PALM_DAILY_LIMIT_PAISE: '100000' })).toThrow(
      /PALM_DAILY_LIMIT_PAISE must not be below PALM_MAX_PAYMENT_PAISE/,
    );
    expect(() => parseEnv({ ...env, PALM_HOURLY_PAYMENTS: '0' })).toThrow(EnvError);
    expect(() => parseEnv({ ...env, PALM_NEW_ENROLMENT_HOLD_HOURS: '-1' })).toThrow(
      /PALM_NEW_ENROLMENT_HOLD_HOURS/,
    );
    expect(parseEnv(env)).toMatchObject({
      PALM_DAILY_LIMIT_PAISE: 500_000,
      PALM_HOURLY_PAYMENTS: 5,
      PALM_NEW_ENROLMENT_HOLD_HOURS: 24,
    });
  });
});
