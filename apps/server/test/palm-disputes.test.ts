import { randomUUID } from 'node:crypto';
import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOSSES_ACCOUNT_ID } from '../src/ledger/ledger';
import { notMeTokenHash } from '../src/palm/palm-payment-notice';
import { bearer, lastCode, registerUser, signInAsAdmin, uniqueEmail } from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { palmSupply, registerPalm } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 21: "Not me" (the notice's one-time link, or the History) pauses palm pay for that person at once
 * and opens a dispute; an admin refunds (from the payee, else the losses account) or rejects, and the payer
 * is told.
 */
describe(`palm disputes on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const { newIdentity, freshScan } = palmSupply(950);
  const post = (url: string, token: string | undefined, payload: object, headers = {}) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  const get = (url: string, token: string) => test.app.inject({ method: 'GET', url, headers: bearer(token) });
  const give = (userId: string, amount: number) => post('/api/assignBalance', adminToken, { userId, amount });
  const balanceOf = async (token: string) =>
    (await get('/api/dashboard', token)).json().user.balance as string;
  const bodiesTo = async (address: string) =>
    (
      await test.database.db
        .selectFrom('outbox_messages')
        .select('body')
        .where('to_address', '=', address)
        .orderBy('id')
        .execute()
    ).map((row) => row.body);
  const lastNotMeToken = async (address: string) => {
    const tokens = (await bodiesTo(address)).flatMap((body) => {
      const token = /\/not-me\?token=([A-Za-z0-9_-]+)/.exec(body)?.[1];
      return token ? [token] : [];
    });
    if (tokens.length === 0) throw new Error(`no Not me link sent to ${address}`);
    return tokens.at(-1)!;
  };
  const disputeCount = async () =>
    Number(
      (
        await test.database.db
          .selectFrom('palm_disputes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A payer (by email) with an enrolled palm past the hold, money, and a receiver. */
  async function payerAndReceiver(rupees = 10_000) {
    const email = uniqueEmail('payer');
    const payer = await registerUser(test.app, test.database, { email });
    const identity = newIdentity();
    expect((await registerPalm(test.app, payer.token, 'right', freshScan(identity))).statusCode).toBe(200);
    await test.database.db
      .updateTable('palm_templates')
      .set({ created_at: new Date(Date.now() - 3 * 24 * 3_600_000) })
      .where('user_id', '=', payer.user.id)
      .execute();
    await give(payer.user.id, rupees);
    const receiver = await registerUser(test.app, test.database, { username: 'Shop Keeper' });
    const pay = (amount: number, key = randomUUID()) =>
      post(
        '/Palm/authenticate',
        receiver.token,
        { amount, scan: freshScan(identity) },
        { 'idempotency-key': key, 'user-agent': 'Counter tablet/2.1' },
      );
    return { payer, email, receiver, pay };
  }

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000', ...RAISED_PALM_RATE_LIMITS } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('"Not me" from the link pauses palm pay at once: the very next palm payment is refused, code or not', async () => {
    const { payer, email, receiver, pay } = await payerAndReceiver();
    const paid = await pay(300);
    expect(paid.statusCode).toBe(200);
    const token = await lastNotMeToken(email);
    // A payment above the palm limit waits for the payer's code when "Not me" comes: it is voided.
    const waiting = await pay(6000);
    expect(waiting.statusCode).toBe(202);
    const code = await lastCode(test.database, email);

    const reported = await post('/api/palm/not-me', undefined, { token });
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toMatchObject({
      success: true,
      message: messages.notMeReported,
      dispute: {
        status: 'open',
        opened_via: 'link',
        transaction: { id: paid.json().transaction.id, amount: '300.00', amount_paise: '30000' },
        payee: 'Shop Keeper',
        device: 'Counter tablet/2.1',
        refunded_from: null,
        resolved_at: null,
      },
    });
    expect(reported.json().dispute.similarity).toBeGreaterThan(40);
    const freeze = await test.database.db
      .selectFrom('palm_pay_freezes')
      .selectAll()
      .where('user_id', '=', payer.user.id)
      .executeTakeFirst();
    expect(freeze?.reason).toBe('not_me');
    const events = await test.database.db
      .selectFrom('palm_pay_freeze_events')
      .select('type')
      .where('user_id', '=', payer.user.id)
      .execute();
    expect(events).toEqual([{ type: 'frozen' }]);
    expect((await bodiesTo(email)).at(-1)).toContain('Palm pay is paused for your account');
    expect((await bodiesTo(email)).at(-1)).toContain('Consent tab');

    // The same server, a fresh scan: refused, palm alone or with a code; nothing moves.
    const before = await balanceOf(payer.token);
    const alone = await pay(10);
    expect([alone.statusCode, alone.json().message]).toEqual([403, messages.palmPayFrozen]);
    const coded = await pay(6000);
    expect([coded.statusCode, coded.json().message]).toEqual([403, messages.palmPayFrozen]);
    const late = await post('/Palm/authenticate/confirm', receiver.token, {
      payment_id: waiting.json().confirmation.id,
      otp: code,
    });
    expect(late.statusCode).toBe(409);
    expect(await balanceOf(payer.token)).toBe(before);
    const account = await test.app.ledger.account(await test.app.ledger.ensureUserAccount(payer.user.id));
    expect(account!.debitsPending).toBe(0n);

    // The token worked once: a second use is refused and changes nothing.
    const twice = await post('/api/palm/not-me', undefined, { token });
    expect([twice.statusCode, twice.json().message]).toEqual([404, messages.notMeLinkInvalid]);
    expect((await post('/api/palm/not-me/preview', undefined, { token })).statusCode).toBe(404);
    expect(await disputeCount()).toBe(1);
    const mine = (await get('/api/palm/disputes', payer.token)).json().disputes;
    expect(mine).toHaveLength(1);
    expect(mine[0].id).toBe(reported.json().dispute.id);
  });

  it('refuses a confirmation when palm pay was paused while the payment waited, and releases the amount', async () => {
    const { payer, email, receiver, pay } = await payerAndReceiver();
    const waiting = await pay(6000);
    expect(waiting.statusCode).toBe(202);
    const code = await lastCode(test.database, email);
    // Paused by any means (a freeze row is all a payment reads), after the payment started waiting.
    await test.database.db
      .insertInto('palm_pay_freezes')
      .values({ user_id: payer.user.id, reason: 'not_me' })
      .execute();
    const confirm = await post('/Palm/authenticate/confirm', receiver.token, {
      payment_id: waiting.json().confirmation.id,
      otp: code,
    });
    expect([confirm.statusCode, confirm.json().message]).toEqual([403, messages.palmPayFrozen]);
    expect(await balanceOf(payer.token)).toBe('10000.00');
    const account = await test.app.ledger.account(await test.app.ledger.ensureUserAccount(payer.user.id));
    expect(account!.debitsPending).toBe(0n);
    const outcome = await test.database.db
      .selectFrom('palm_payment_confirmations')
      .select('outcome')
      .where('transfer_id', '=', waiting.json().confirmation.id)
      .executeTakeFirstOrThrow();
    expect(outcome.outcome).toBe('failed');
  });

  it('lets a "Not me" link work for 7 days only', async () => {
    const { email, pay } = await payerAndReceiver();
    expect((await pay(50)).statusCode).toBe(200);
    const token = await lastNotMeToken(email);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 7 * 24 * 3_600_000 - 60_000);
      expect((await post('/api/palm/not-me/preview', undefined, { token })).statusCode).toBe(200);
      vi.setSystemTime(Date.now() + 2 * 60_000);
      const expired = await post('/api/palm/not-me', undefined, { token });
      expect([expired.statusCode, expired.json().message]).toEqual([404, messages.notMeLinkInvalid]);
    } finally {
      vi.useRealTimers();
    }
    const used = await test.database.db
      .selectFrom('palm_payment_notices')
      .select('used_at')
      .where('token_hash', '=', notMeTokenHash(token))
      .executeTakeFirstOrThrow();
    expect(used.used_at).toBeNull();
  });

  it('reports from the History only palm payments the signed-in person made, once each', async () => {
    const { payer, receiver, pay } = await payerAndReceiver();
    const paid = (await pay(40)).json().transaction.id as string;
    const report = (token: string, id: string) => post('/api/palm/disputes', token, { transaction_id: id });
    // The receiver did not make it; a transfer that is no palm payment is not reportable here.
    const notTheirs = await report(receiver.token, paid);
    expect([notTheirs.statusCode, notTheirs.json().message]).toEqual([403, messages.disputeNotPalmPayment]);
    const unknown = await report(payer.token, randomUUID());
    expect(unknown.json().message).toBe(messages.disputeNotPalmPayment);
    expect((await post('/api/palm/disputes', undefined, { transaction_id: paid })).statusCode).toBe(401);

    const opened = await report(payer.token, paid);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().dispute).toMatchObject({ opened_via: 'history', status: 'open' });
    const again = await report(payer.token, paid);
    expect([again.statusCode, again.json().message]).toEqual([409, messages.disputeAlreadyOpen]);
    expect((await pay(1)).json().message).toBe(messages.palmPayFrozen);
    expect((await get('/api/palm/disputes', receiver.token)).json().disputes).toEqual([]);
  });

  it('refunds from the payee once (two admins racing: one wins), and tells the payer', async () => {
    const { payer, email, receiver, pay } = await payerAndReceiver();
    const paid = (await pay(700)).json().transaction.id as string;
    const dispute = (await post('/api/palm/disputes', payer.token, { transaction_id: paid })).json().dispute;
    const otherAdmin = await signInAsAdmin(test.app, test.database);
    const answers = await Promise.all([
      post(`/api/disputes/${dispute.id}`, adminToken, { action: 'refund' }),
      post(`/api/disputes/${dispute.id}`, otherAdmin, { action: 'refund' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const won = answers.find((answer) => answer.statusCode === 200)!.json();
    expect(won).toMatchObject({
      success: true,
      message: messages.disputeRefunded,
      dispute: { status: 'refunded', refunded_from: 'payee', payer_email: email },
    });
    expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toBe(messages.disputeClosed);
    expect([await balanceOf(payer.token), await balanceOf(receiver.token)]).toEqual(['10000.00', '0.00']);
    const refunds = await test.database.db
      .selectFrom('ledger_transfers')
      .select(['kind', 'amount_paise'])
      .where('reverses_id', '=', paid)
      .execute();
    expect(refunds).toEqual([{ kind: 'reversal', amount_paise: 70_000n }]);
    expect((await bodiesTo(email)).at(-1)).toContain('₹700.00 is back in your wallet');
    const reject = await post(`/api/disputes/${dispute.id}`, adminToken, {
      action: 'reject',
      reason: 'late',
    });
    expect([reject.statusCode, reject.json().message]).toEqual([409, messages.disputeClosed]);
  });

  it('refunds from the losses account when the payee already spent the money: the books still balance', async () => {
    const { payer, receiver, pay } = await payerAndReceiver();
    const paid = (await pay(900)).json().transaction.id as string;
    // The payee spends most of it before anyone looks.
    const elsewhere = await registerUser(test.app, test.database);
    await test.app.ledger.transfer({
      id: randomUUID(),
      debitAccountId: await test.app.ledger.ensureUserAccount(receiver.user.id),
      creditAccountId: await test.app.ledger.ensureUserAccount(elsewhere.user.id),
      amountPaise: 80_000n,
      kind: 'transfer',
    });
    const losses = async () => (await test.app.ledger.account(LOSSES_ACCOUNT_ID))!;
    const lossesBefore = await losses();
    const dispute = (await post('/api/palm/disputes', payer.token, { transaction_id: paid })).json().dispute;
    const refunded = await post(`/api/disputes/${dispute.id}`, adminToken, { action: 'refund' });
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json().dispute).toMatchObject({ status: 'refunded', refunded_from: 'losses' });
    expect([await balanceOf(payer.token), await balanceOf(receiver.token)]).toEqual(['10000.00', '100.00']);
    expect((await losses()).debitsPosted - lossesBefore.debitsPosted).toBe(90_000n);
    const mine = (await get('/api/palm/disputes', payer.token)).json().disputes;
    expect(mine[0]).toMatchObject({ status: 'refunded', refunded_from: 'losses' });
  });

  it('rejects with a reason the payer is told; nobody but an admin lists or resolves', async () => {
    const { payer, email, pay } = await payerAndReceiver();
    const paid = (await pay(25)).json().transaction.id as string;
    const dispute = (await post('/api/palm/disputes', payer.token, { transaction_id: paid })).json().dispute;
    expect((await get('/api/disputes', payer.token)).statusCode).toBe(403);
    expect((await post(`/api/disputes/${dispute.id}`, payer.token, { action: 'refund' })).statusCode).toBe(
      403,
    );
    expect((await test.app.inject({ method: 'GET', url: '/api/disputes' })).statusCode).toBe(401);
    const blank = await post(`/api/disputes/${dispute.id}`, adminToken, { action: 'reject', reason: ' ' });
    expect([blank.statusCode, blank.json().message]).toEqual([400, messages.disputeReasonRequired]);
    const listed = (await get('/api/disputes', adminToken)).json().disputes;
    expect(listed.find((d: { id: string }) => d.id === dispute.id)).toMatchObject({
      status: 'open',
      payer_email: email,
    });
    const rejected = await post(`/api/disputes/${dispute.id}`, adminToken, {
      action: 'reject',
      reason: 'The scan was taken at your usual shop with your phone nearby.',
    });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({
      message: messages.disputeRejected,
      dispute: {
        status: 'rejected',
        reason: 'The scan was taken at your usual shop with your phone nearby.',
      },
    });
    expect((await bodiesTo(email)).at(-1)).toContain(
      'Reason: The scan was taken at your usual shop with your phone nearby.',
    );
    expect(await balanceOf(payer.token)).toBe('9975.00');
    const missing = await post(`/api/disputes/${randomUUID()}`, adminToken, { action: 'refund' });
    expect([missing.statusCode, missing.json().message]).toEqual([404, messages.disputeNotFound]);
  });
});
