import { randomUUID } from 'node:crypto';
import { messages, redeemMinimumMessage, redeemWholeRupeesMessage } from '@hasta/contracts/messages';
import type { RewardsOverview } from '@hasta/contracts/rewards';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, inLedgerTransaction, POINTS_ACCOUNT_ID, SYSTEM_ACCOUNT_ID } from '../src/ledger/ledger';
import { nextTier, tierFor, tierWindowStart } from '../src/rewards/rewards-rules';
import { showRewards } from '../src/rewards/show-rewards';
import {
  bearer,
  lastCode,
  passCooldown,
  registerUser,
  signInAsAdmin,
  uniquePhone,
} from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { auditAfterEachTest, outcomeOf } from './support/ledger-helpers';
import { palmSupply, registerPalm } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

describe(`rewards on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const palms = palmSupply(400);
  const post = (url: string, token: string | undefined, payload?: object, headers = {}) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  const get = (url: string, token: string) => test.app.inject({ method: 'GET', url, headers: bearer(token) });
  const rewardsOf = async (token: string): Promise<RewardsOverview> => {
    const response = await get('/api/rewards', token);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const give = (userId: string, amount: number) => post('/api/assignBalance', adminToken, { userId, amount });
  const balanceOf = async (token: string) =>
    (await get('/api/dashboard', token)).json().user.balance as string;

  /** The store the payers of this file buy from (its owner takes palm payments: Accept Palm). */
  let store: { token: string };

  /**
   * A person with a palm of their own and money to spend: `pay` buys at the store by palm (a purchase, what
   * earns points), `payFriend` pays another person by palm (/receive).
   */
  async function payerWithPalm(rupees = 50_000) {
    const payer = await registerUser(test.app, test.database);
    const palm = palms.newIdentity();
    expect((await registerPalm(test.app, payer.token, 'right', palms.freshScan(palm))).statusCode).toBe(200);
    await give(payer.user.id, rupees);
    const friend = await registerUser(test.app, test.database);
    const byPalm = async (url: string, token: string, amount: number, key: string) => {
      const response = await post(
        url,
        token,
        { amount, scan: palms.freshScan(palm) },
        { 'idempotency-key': key },
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json().transaction as { id: string };
    };
    const pay = (amount: number, key: string = randomUUID()) =>
      byPalm('/api/transaction', store.token, amount, key);
    const payFriend = (amount: number, key: string = randomUUID()) =>
      byPalm('/Palm/authenticate', friend.token, amount, key);
    return { payer, pay, payFriend, scan: () => palms.freshScan(palm) };
  }

  beforeAll(async () => {
    test = await buildTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '30000',
        PALM_NEW_ENROLMENT_HOLD_HOURS: '0',
        // Palm payments up to ₹20,000 by the palm alone, many an hour: these tests are about points.
        PALM_MAX_PAYMENT_PAISE: '2000000',
        PALM_DAILY_LIMIT_PAISE: '20000000',
        PALM_HOURLY_PAYMENTS: '1000',
        ...RAISED_PALM_RATE_LIMITS,
      },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    store = await approvedMerchant(test.app, test.database, adminToken, 'Rewards Store');
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('puts tiers at ₹2,000, ₹5,000 and ₹10,000 of spend, to the paisa', () => {
    expect(tierFor(0n)).toBeNull();
    expect(tierFor(199_999n)).toBeNull();
    expect(tierFor(200_000n)).toBe('Silver');
    expect(tierFor(499_999n)).toBe('Silver');
    expect(tierFor(500_000n)).toBe('Gold');
    expect(tierFor(999_999n)).toBe('Gold');
    expect(tierFor(1_000_000n)).toBe('Platinum');
    expect(nextTier(199_999n)).toEqual({ tier: 'Silver', remainingPaise: 1n, progressPercent: 99 });
    expect(nextTier(350_000n)).toEqual({ tier: 'Gold', remainingPaise: 150_000n, progressPercent: 50 });
    expect(nextTier(1_000_000n)).toBeNull();
    expect(tierWindowStart(new Date('2026-11-26T10:00:00Z')).toISOString()).toBe('2025-11-26T10:00:00.000Z');
  });

  it('awards 5, 10 and 20 points per palm payment by the tier before it, and moves the tier at each boundary', async () => {
    const { payer, pay } = await payerWithPalm();
    const start = await rewardsOf(payer.token);
    expect(start).toMatchObject({ points: 0, tier: null, spend: '0.00', points_per_payment: 0 });
    expect(start.next_tier).toEqual({ tier: 'Silver', remaining: '2000.00', progress_percent: 0 });

    await pay(1999.99);
    expect(await rewardsOf(payer.token)).toMatchObject({
      points: 0,
      tier: null,
      spend: '1999.99',
      next_tier: { tier: 'Silver', remaining: '0.01' },
    });
    // This payment reaches Silver; it was made below it, so it earns nothing.
    await pay(0.01);
    expect(await rewardsOf(payer.token)).toMatchObject({
      points: 0,
      tier: 'Silver',
      spend: '2000.00',
      points_per_payment: 5,
      next_tier: { tier: 'Gold', remaining: '3000.00', progress_percent: 0 },
    });
    await pay(2999.99);
    expect(await rewardsOf(payer.token)).toMatchObject({ points: 5, tier: 'Silver', spend: '4999.99' });
    await pay(0.01);
    expect(await rewardsOf(payer.token)).toMatchObject({ points: 10, tier: 'Gold', points_per_payment: 10 });
    await pay(4999.99);
    expect(await rewardsOf(payer.token)).toMatchObject({ points: 20, tier: 'Gold', spend: '9999.99' });
    await pay(0.01);
    const platinum = await rewardsOf(payer.token);
    expect(platinum).toMatchObject({ points: 30, tier: 'Platinum', points_per_payment: 20, next_tier: null });
    await pay(1);
    const after = await rewardsOf(payer.token);
    expect(after.points).toBe(50);
    expect(after.recent.map((entry) => [entry.reason, entry.points])).toEqual([
      ['palm_payment', 20],
      ['palm_payment', 10],
      ['palm_payment', 10],
      ['palm_payment', 5],
      ['palm_payment', 5],
    ]);
  });

  it('counts only the last 12 months of payments for the tier', async () => {
    const { payer, pay } = await payerWithPalm();
    await pay(2500);
    const now = new Date();
    const rewards = (at: Date) =>
      showRewards(
        {
          db: test.database.db,
          ledger: { ...pick(test.app.ledger), now: () => at },
          config: test.app.rewards.config,
        },
        payer.user.id,
      );
    expect((await rewards(now)).tier).toBe('Silver');
    const thirteenMonthsOn = new Date(now.getTime());
    thirteenMonthsOn.setUTCMonth(thirteenMonthsOn.getUTCMonth() + 13);
    expect(await rewards(thirteenMonthsOn)).toMatchObject({ tier: null, spend: '0.00' });
  });

  it('awards a palm payment that waits for the payer’s code when it is confirmed, not while it waits', async () => {
    const { payer, pay, scan } = await payerWithPalm();
    await pay(2000);
    // Above the palm limit (₹20,000 here): the payment waits for the code sent to the payer.
    const waiting = await post('/api/transaction', store.token, { amount: 20_000.5, scan: scan() });
    expect(waiting.statusCode, waiting.body).toBe(202);
    expect((await rewardsOf(payer.token)).points).toBe(0);
    const code = await lastCode(test.database, payer.user.email!);
    const confirmed = await post('/Palm/authenticate/confirm', store.token, {
      payment_id: waiting.json().confirmation.id,
      otp: code,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Silver before it: 5 points; with it the spend is ₹22,000.50, Platinum.
    expect(await rewardsOf(payer.token)).toMatchObject({ points: 5, tier: 'Platinum' });
  });

  it('never awards twice for a retried payment', async () => {
    const { payer, pay } = await payerWithPalm();
    await pay(2000);
    const first = await pay(100, 'the-same-key');
    const again = await pay(100, 'the-same-key');
    expect(again.id).toBe(first.id);
    expect((await rewardsOf(payer.token)).points).toBe(5);
    // The award itself is keyed by its cause: made again for the same payment, it writes nothing new.
    await inLedgerTransaction(test.database.db, (trx) =>
      test.app.rewards.palmPaymentMade(trx, { paymentId: first.id, payerUserId: payer.user.id }),
    );
    expect((await rewardsOf(payer.token)).points).toBe(5);
    expect((await rewardsOf(payer.token)).recent).toHaveLength(1);
  });

  it('takes a reversed payment’s points back, never below zero', async () => {
    const { payer, pay } = await payerWithPalm();
    await pay(2000);
    const rewarded = await pay(10);
    expect((await rewardsOf(payer.token)).points).toBe(5);
    const deleted = await test.app.inject({
      method: 'DELETE',
      url: `/api/transaction/${rewarded.id}`,
      headers: bearer(adminToken),
    });
    expect(deleted.statusCode).toBe(200);
    const after = await rewardsOf(payer.token);
    expect(after.points).toBe(0);
    expect(after.recent[0]).toMatchObject({ reason: 'take_back', points: -5 });
    // The reversed payment no longer counts towards the tier either.
    expect(after.spend).toBe('2000.00');

    // A refunded "Not me" dispute is a reversal too: the disputed payment's points go back.
    const disputed = await pay(20);
    expect((await rewardsOf(payer.token)).points).toBe(5);
    const dispute = (await post('/api/palm/disputes', payer.token, { transaction_id: disputed.id })).json()
      .dispute as { id: string };
    expect((await post(`/api/disputes/${dispute.id}`, adminToken, { action: 'refund' })).statusCode).toBe(
      200,
    );
    const refunded = await rewardsOf(payer.token);
    expect(refunded.points).toBe(0);
    expect(refunded.recent.slice(0, 2)).toMatchObject([
      { reason: 'take_back', points: -5 },
      { reason: 'palm_payment', points: 5 },
    ]);
  });

  it('takes back only what is left of an award whose points were redeemed meanwhile', async () => {
    const { payer, pay } = await payerWithPalm();
    await pay(10_000);
    const rewarded = await pay(10);
    expect((await rewardsOf(payer.token)).points).toBe(20);
    const { paymentReversed } = test.app.rewards;
    // Most of the 20 points were spent: 17 of them, leaving 3.
    const pointsAccount = await test.app.ledger.ensurePointsAccount(payer.user.id);
    await test.app.ledger.transfer({
      id: randomUUID(),
      debitAccountId: pointsAccount,
      creditAccountId: POINTS_ACCOUNT_ID,
      amountPaise: 17n,
      kind: 'redemption',
    });
    await inLedgerTransaction(test.database.db, (trx) =>
      paymentReversed.call(test.app.rewards, trx, rewarded.id),
    );
    expect(await rewardsOf(payer.token)).toMatchObject({
      points: 0,
      recent: [
        { reason: 'take_back', points: -3 },
        { reason: 'palm_payment', points: 20 },
      ],
    });
  });

  it('gives the kiosk bonus of 100 points once, for a palm enrolled with staff’s help', async () => {
    const person = await registerUser(test.app, test.database);
    const enrol = async (hand: 'left' | 'right') => {
      const started = await registerPalm(test.app, adminToken, hand, palms.freshScan(palms.newIdentity()), {
        user_id: person.user.id,
        admin_mode: true,
      });
      expect(started.statusCode).toBe(202);
      const code = await lastCode(test.database, person.user.email!);
      const approved = await post(
        `/Palm/enrolment-requests/${started.json().request.id}/approve`,
        person.token,
        { otp: code },
      );
      expect(approved.statusCode).toBe(200);
    };
    await enrol('left');
    expect(await rewardsOf(person.token)).toMatchObject({
      points: 100,
      recent: [{ reason: 'kiosk_bonus', points: 100 }],
    });
    await passCooldown(test.database, person.user.email!);
    await enrol('right');
    expect((await rewardsOf(person.token)).points).toBe(100);
    // Enrolling one's own palm (not at a kiosk) earns no bonus.
    const own = await payerWithPalm();
    expect((await rewardsOf(own.payer.token)).points).toBe(0);
  });

  it('counts a referral when the new person registers and pays both at their first payment, once', async () => {
    const referrer = await registerUser(test.app, test.database);
    const { code, link, sent } = (await rewardsOf(referrer.token)).referral;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(link).toBe(`/register?ref=${code}`);
    expect(sent).toBe(0);
    expect((await post('/api/rewards/referral/shared', referrer.token)).json()).toEqual({ sent: 1 });

    const self = await post('/api/rewards/referral', referrer.token, { code });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(messages.referralSelf);
    const { payer, pay } = await payerWithPalm();
    const unknown = await post('/api/rewards/referral', payer.token, { code: 'ZZZZZZZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(messages.referralCodeUnknown);
    // Lower case is the same code.
    expect((await post('/api/rewards/referral', payer.token, { code: code.toLowerCase() })).json()).toEqual({
      joined: true,
    });
    const twice = await post('/api/rewards/referral', payer.token, { code });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(messages.referralAlreadyJoined);
    expect((await rewardsOf(referrer.token)).referral).toMatchObject({ sent: 1, joined: 1, rewarded: 0 });
    expect((await rewardsOf(referrer.token)).points).toBe(0);

    await pay(10);
    expect((await rewardsOf(referrer.token)).referral).toMatchObject({ joined: 1, rewarded: 1 });
    expect((await rewardsOf(referrer.token)).points).toBe(50);
    expect(await rewardsOf(payer.token)).toMatchObject({
      points: 50,
      recent: [{ reason: 'referral', points: 50 }],
    });
    await pay(10);
    expect((await rewardsOf(referrer.token)).points).toBe(50);
    expect((await rewardsOf(payer.token)).points).toBe(50);
  });

  it('pays a referral at the first payment into a store too, and counts store payments towards the tier', async () => {
    const referrer = await registerUser(test.app, test.database);
    const { code } = (await rewardsOf(referrer.token)).referral;
    const phone = uniquePhone();
    const customer = await registerUser(test.app, test.database, { phone });
    await give(customer.user.id, 3000);
    expect((await post('/api/rewards/referral', customer.token, { code })).statusCode).toBe(200);
    const shop = await approvedMerchant(test.app, test.database, adminToken, 'Rewards Stall');

    await passCooldown(test.database, phone);
    expect((await post('/api/send-sms-otp', customer.token, { phone, purpose: 'transfer' })).statusCode).toBe(
      200,
    );
    const otp = await lastCode(test.database, phone);
    expect(
      (await post('/api/verify-sms-otp', customer.token, { phone, otp, purpose: 'transfer' })).statusCode,
    ).toBe(200);
    const paid = await post('/api/transfer', customer.token, {
      receiverEmail: shop.email,
      amount: 2000,
      transferMethod: 'qr_scan',
    });
    expect(paid.statusCode, paid.body).toBe(200);

    expect(await rewardsOf(customer.token)).toMatchObject({ points: 50, tier: 'Silver', spend: '2000.00' });
    expect(await rewardsOf(referrer.token)).toMatchObject({
      points: 50,
      referral: { joined: 1, rewarded: 1 },
    });
  });

  // Attacks on the programme's money: the rewards expense account pays real rupees for points.
  it('attack: two people paying each other back and forth by palm earn no points and no tier', async () => {
    // A pays B and B pays A: no money leaves the pair, so every point would be the programme's money.
    const { payer, payFriend } = await payerWithPalm();
    await payFriend(2000);
    await payFriend(10);
    await payFriend(10);
    expect(await rewardsOf(payer.token)).toMatchObject({ points: 0, tier: null, spend: '0.00' });
  });

  it('attack: a referral is not paid out by a payment to a friend, only by a purchase at a store', async () => {
    // Accounts made with one's own code, each paying a friend ₹0.01, would each bring 50 + 50 points.
    const referrer = await registerUser(test.app, test.database);
    const { code } = (await rewardsOf(referrer.token)).referral;
    const { payer, pay, payFriend } = await payerWithPalm();
    expect((await post('/api/rewards/referral', payer.token, { code })).statusCode).toBe(200);
    await payFriend(0.01);
    expect((await rewardsOf(referrer.token)).referral).toMatchObject({ joined: 1, rewarded: 0 });
    expect((await rewardsOf(payer.token)).points).toBe(0);
    // Their first purchase at a store pays it.
    await pay(0.01);
    expect((await rewardsOf(referrer.token)).referral).toMatchObject({ joined: 1, rewarded: 1 });
    expect((await rewardsOf(payer.token)).points).toBe(50);
  });

  it('refuses a referral code named by an account older than a day', async () => {
    const referrer = await registerUser(test.app, test.database);
    const { code } = (await rewardsOf(referrer.token)).referral;
    const old = await registerUser(test.app, test.database);
    await sql`UPDATE users SET created_at = now() - interval '2 days' WHERE id = ${old.user.id}`.execute(
      test.database.db,
    );
    const late = await post('/api/rewards/referral', old.token, { code });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(messages.referralTooLate);
  });

  it('redeems points at 4 to the rupee, in whole rupees from 100 points, into the wallet and its history', async () => {
    const person = await registerUser(test.app, test.database);
    const enrolled = await registerPalm(test.app, adminToken, 'left', palms.freshScan(palms.newIdentity()), {
      user_id: person.user.id,
      admin_mode: true,
    });
    await post(`/Palm/enrolment-requests/${enrolled.json().request.id}/approve`, person.token, {
      otp: await lastCode(test.database, person.user.email!),
    });
    expect(await rewardsOf(person.token)).toMatchObject({
      points: 100,
      redeemable_points: 100,
      redeemable_rupees: '25.00',
    });

    const below = await post('/api/rewards/redeem', person.token, { points: 96 });
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toBe(redeemMinimumMessage(100));
    const notWhole = await post('/api/rewards/redeem', person.token, { points: 101 });
    expect(notWhole.statusCode).toBe(400);
    expect(notWhole.json().message).toBe(redeemWholeRupeesMessage(4));
    const tooMany = await post('/api/rewards/redeem', person.token, { points: 104 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(messages.insufficientPoints);
    expect(await balanceOf(person.token)).toBe('0.00');

    const redeemed = await post(
      '/api/rewards/redeem',
      person.token,
      { points: 100 },
      { 'idempotency-key': 'r-1' },
    );
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toMatchObject({
      points_redeemed: 100,
      amount: '25.00',
      points: 0,
      transaction: {
        amount: '25.00',
        direction: 'received',
        from_user_email: 'Hasta Rewards',
        status: 'completed',
      },
    });
    // The same key again is the same redemption.
    const again = await post(
      '/api/rewards/redeem',
      person.token,
      { points: 100 },
      { 'idempotency-key': 'r-1' },
    );
    expect(again.json().transaction.id).toBe(redeemed.json().transaction.id);
    expect(await balanceOf(person.token)).toBe('25.00');
    const history = (await get('/api/transaction/history', person.token)).json().transactions;
    expect(history[0]).toMatchObject({ id: redeemed.json().transaction.id, amount: '25.00' });
    expect(await rewardsOf(person.token)).toMatchObject({
      points: 0,
      recent: [
        { reason: 'redemption', points: -100 },
        { reason: 'kiosk_bonus', points: 100 },
      ],
    });
    const summary = await get('/api/rewards/summary', adminToken);
    expect(summary.statusCode).toBe(200);
    expect(summary.json().points_redeemed).toBeGreaterThanOrEqual(100);
    expect(Number(summary.json().rupees_paid)).toBeGreaterThanOrEqual(25);
    // The admin sees each person's points and tier in the Users tab.
    const users = (await get(`/api/auth/users?ids=${person.user.id}`, adminToken)).json().users;
    expect(users.find((u: { id: string }) => u.id === person.user.id)).toMatchObject({
      points: 0,
      tier: null,
    });
  });

  it('redeems the same points once when two redemptions race', async () => {
    const person = await registerUser(test.app, test.database);
    const enrolled = await registerPalm(test.app, adminToken, 'left', palms.freshScan(palms.newIdentity()), {
      user_id: person.user.id,
      admin_mode: true,
    });
    await post(`/Palm/enrolment-requests/${enrolled.json().request.id}/approve`, person.token, {
      otp: await lastCode(test.database, person.user.email!),
    });
    expect((await rewardsOf(person.token)).points).toBe(100);
    const answers = await Promise.all(
      ['race-a', 'race-b'].map((key) =>
        post('/api/rewards/redeem', person.token, { points: 100 }, { 'idempotency-key': key }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.statusCode === 400)!.json().message).toBe(
      messages.insufficientPoints,
    );
    expect(await balanceOf(person.token)).toBe('25.00');
    expect((await rewardsOf(person.token)).points).toBe(0);
  });

  it('keeps rupees and points apart, and the auditor balances each asset', async () => {
    const ledger = test.app.ledger;
    const person = await registerUser(test.app, test.database);
    const wallet = await ledger.ensureUserAccount(person.user.id);
    const points = await ledger.ensurePointsAccount(person.user.id);
    const mixed = (debit: string, credit: string) =>
      outcomeOf(
        ledger.transfer({
          id: randomUUID(),
          debitAccountId: debit,
          creditAccountId: credit,
          amountPaise: 10n,
          kind: 'reward',
        }),
      );
    expect(await mixed(POINTS_ACCOUNT_ID, wallet)).toBe('asset_mismatch');
    expect(await mixed(SYSTEM_ACCOUNT_ID, points)).toBe('asset_mismatch');
    expect(await mixed(POINTS_ACCOUNT_ID, points)).toBe('ok');
    expect(await auditLedger(test.database.db)).toEqual([]);
    // A points account changed behind the ledger's back: the points books no longer balance.
    await sql`UPDATE ledger_accounts SET credits_posted = credits_posted + 7 WHERE id = ${points}`.execute(
      test.database.db,
    );
    const findings = await auditLedger(test.database.db);
    expect(findings).toContain('points posted balances sum to 7, not 0');
    expect(findings).toContain(`account ${points} does not equal the sum of its transfers`);
    await sql`UPDATE ledger_accounts SET credits_posted = credits_posted - 7 WHERE id = ${points}`.execute(
      test.database.db,
    );
  });
});

/** The ledger's reading methods, for a copy with another clock. */
function pick(ledger: TestApp['app']['ledger']) {
  return {
    ensurePointsAccount: ledger.ensurePointsAccount.bind(ledger),
    account: ledger.account.bind(ledger),
  };
}
