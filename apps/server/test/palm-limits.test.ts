import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin, uniquePhone } from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { registerPalm, scanOf } from './support/palm-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 21: a palm must not be a bearer credential that drains a wallet ₹5,000 at a time. Palm-alone payments
 * have per-payer limits (per payment, per rolling hour, per rolling day) and a hold after enrolment, enforced
 * in the payment's own transaction; past any of them the payment waits for the payer's code.
 */
describe(`palm pay limits on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  /** Palm identities of this file (each person a new one) and the next unused sample of each. */
  let nextIdentity = 900;
  const nextSample = new Map<number, number>();
  /** A fresh scan of `identity`: never the same frames twice (a replay guard refuses those). */
  const freshScan = (identity: number) => {
    const first = nextSample.get(identity) ?? 0;
    nextSample.set(identity, first + 3);
    return scanOf(identity, [first, first + 1, first + 2]);
  };
  const post = (url: string, token: string | undefined, payload: object, headers = {}) =>
    test.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  const give = (userId: string, amount: number) => post('/api/assignBalance', adminToken, { userId, amount });

  /** A person with a palm and money, the palm enrolled long enough ago that the new-enrolment hold is over. */
  async function payerWithPalm(rupees: number, options: { phone?: string; aged?: boolean } = {}) {
    const payer = await registerUser(test.app, test.database, options.phone ? { phone: options.phone } : {});
    const identity = (nextIdentity += 1);
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

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
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

  it('never lets 10 concurrent palm payments of one payer pass more than the limits palm-alone', async () => {
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
  });
});
