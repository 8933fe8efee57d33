import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import { verifyReceipt } from '@hasta/tlog/receipt';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { palmPayLimits } from '../src/env';
import { VERSION_1_PROTECTION } from '@hasta/palm/protect';
import { palmKeyFrom } from '../src/palm/palm-keys';
import { takePalmPayment, type PalmPaymentDeps } from '../src/palm/take-palm-payment';
import { mirrorFrame, PalmNotRecognisedError, PalmService } from '../src/palm/palm-service';
import {
  bearer,
  lastCode,
  registerUser,
  signInAsAdmin,
  uniqueEmail,
  uniquePhone,
} from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { framesOf, registerPalm, scanOf } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

describe(`palm registration and payment on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const post = (url: string, token: string | undefined, payload: object, headers = {}) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  const get = (url: string, token: string) => test.app.inject({ method: 'GET', url, headers: bearer(token) });
  const balanceOf = async (token: string) =>
    (await get('/api/dashboard', token)).json().user.balance as string;
  const register = (token: string, hand: 'left' | 'right', scan: PalmScan, extra: object = {}) =>
    registerPalm(test.app, token, hand, scan, extra);
  const give = (userId: string, amount: number) => post('/api/assignBalance', adminToken, { userId, amount });

  beforeAll(async () => {
    // These tests are about registration and payments, not the new-enrolment hold (palm-limits.test.ts).
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', PALM_NEW_ENROLMENT_HOLD_HOURS: '0', ...RAISED_PALM_RATE_LIMITS },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('registers each hand once, with consent, and shows it on the dashboard and to the admin', async () => {
    const { token, user } = await registerUser(test.app, test.database);
    const noConsent = await post('/Palm/register', token, { which_hand: 'left', scan: scanOf(1, [0, 1, 2]) });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().message).toBe(messages.palmConsentRequired);

    const left = await register(token, 'left', scanOf(1, [0, 1, 2]));
    expect(left.statusCode).toBe(200);
    expect(left.json()).toMatchObject({
      success: true,
      state: true,
      message: 'Left hand has been registered successfully.',
    });
    expect(left.json().palm_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await register(token, 'left', scanOf(1, [3, 4]))).json().message).toBe(
      messages.handAlreadyRegistered,
    );
    const state = await post('/Palm/user/palm-registration-state', token, { user_id: user.id });
    expect(state.json()).toEqual({ left_hand_registered: true, right_hand_registered: false });

    const right = await register(token, 'right', scanOf(2, [0, 1, 2]));
    expect(right.statusCode).toBe(200);
    const dashboard = (await get('/api/dashboard', token)).json().user;
    expect(dashboard.palm_hash).toBe(left.json().palm_hash);
    expect(dashboard.handinfo).toEqual({ left: true, right: true });
    expect(
      dashboard.user_history.filter((entry: { type: string }) => entry.type === 'palm_registration'),
    ).toHaveLength(2);

    const users = (await get(`/api/auth/users?ids=${user.id}`, adminToken)).json();
    const row = users.users.find((u: { id: string }) => u.id === user.id);
    expect(row).toMatchObject({ left_palm_registered: true, right_palm_registered: true });
    // Spec §3: "Hashes only indicate registered or not": a marker, never the template's hash the owner sees.
    expect(row).toMatchObject({ left_palm_hash: 'registered', right_palm_hash: 'registered' });
    expect([row.left_palm_hash, row.right_palm_hash]).not.toContain(left.json().palm_hash);
    expect([row.left_palm_hash, row.right_palm_hash]).not.toContain(right.json().palm_hash);
  });

  it('refuses a palm that already belongs to someone, frames of two palms, and unclear frames', async () => {
    const first = await registerUser(test.app, test.database);
    expect((await register(first.token, 'right', scanOf(3, [0, 1, 2]))).statusCode).toBe(200);
    const second = await registerUser(test.app, test.database);
    // Someone else's palm is refused as any failed registration is (issue 21: no oracle).
    const copied = await register(second.token, 'right', scanOf(3, [5, 6, 7]));
    expect(copied.statusCode).toBe(400);
    expect(copied.json().message).toBe(messages.palmRegistrationRefused);

    const mixed = scanOf(4, [0]);
    mixed.frames.push(...scanOf(5, [0, 1]).frames);
    expect((await register(second.token, 'right', mixed)).json().message).toBe(
      messages.palmRegistrationRefused,
    );
    const flat = Buffer.alloc(128 * 128, 120).toString('base64');
    const unclear = await register(second.token, 'right', { frames: [flat], source: 'camera' });
    expect(unclear.statusCode).toBe(400);
    expect(unclear.json().message).toBe(messages.palmScanUnclear);
    const short = await register(second.token, 'right', { frames: ['AAAA'], source: 'camera' });
    expect(short.json().message).toBe(messages.scanFailed);
    const state = await post('/Palm/user/palm-registration-state', second.token, {});
    expect(state.json()).toEqual({ left_hand_registered: false, right_hand_registered: false });
  });

  it('lets an admin register for a user, with the user’s approval, and nobody else', async () => {
    const target = await registerUser(test.app, test.database);
    const other = await registerUser(test.app, test.database);
    const payload = { user_id: target.user.id, admin_mode: true };
    const refused = await register(other.token, 'left', scanOf(6, [0, 1, 2]), payload);
    expect(refused.statusCode).toBe(403);
    expect((await post('/Palm/user/palm-registration-state', other.token, payload)).statusCode).toBe(403);
    const anonymous = { which_hand: 'left', consent: true, scan: scanOf(6, [0]) };
    expect((await post('/Palm/register', undefined, anonymous)).statusCode).toBe(401);
    const started = await register(adminToken, 'left', scanOf(6, [0, 1, 2]), payload);
    expect(started.statusCode).toBe(202);
    const code = await lastCode(test.database, target.user.email!);
    const done = await post(`/Palm/enrolment-requests/${started.json().request.id}/approve`, target.token, {
      otp: code,
    });
    expect(done.statusCode).toBe(200);
    const state = await post('/Palm/user/palm-registration-state', adminToken, payload);
    expect(state.json()).toEqual({ left_hand_registered: true, right_hand_registered: false });
  });

  it('pays a receiver from the palm’s owner, and refuses a wrong palm, oneself, a stranger’s name and too much', async () => {
    const payer = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    await register(payer.token, 'right', scanOf(7, [0, 1, 2]));
    await give(payer.user.id, 1000);

    const paid = await post(
      '/Palm/authenticate',
      receiver.token,
      { amount: 250.5, receiverEmail: receiver.user.email, scan: scanOf(7, [10, 11, 12]) },
      { 'idempotency-key': 'palm-1' },
    );
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({
      success: true,
      authenticated: true,
      message: messages.authenticationSuccessful,
      // The receiver sees the payer masked (issue 21): the initials of the address and the name.
      transaction: {
        amount: '250.50',
        direction: 'received',
        from_user_email: `${payer.user.email![0]}•••@${payer.user.email!.split('@')[1]![0]}•••`,
        from_user_name: 'T.',
      },
    });
    // The same key again is the same payment, not a second one.
    const again = await post(
      '/Palm/authenticate',
      receiver.token,
      { amount: 250.5, scan: scanOf(7, [13, 14, 15]) },
      { 'idempotency-key': 'palm-1' },
    );
    expect(again.json().transaction.id).toBe(paid.json().transaction.id);
    expect(await balanceOf(payer.token)).toBe('749.50');
    expect(await balanceOf(receiver.token)).toBe('250.50');
    const scans = (await get('/api/dashboard', payer.token))
      .json()
      .user.user_history.filter((entry: { type: string }) => entry.type === 'palm_manual_scan');
    expect(scans).toHaveLength(1);
    expect(scans[0].status).toBe('Success');
    expect(scans[0].similarity).toBeGreaterThan(40);
    // The payer's history names the palm that paid (its hash); the receiver's does not.
    const payerPalm = (await get('/api/dashboard', payer.token)).json().user.palm_hash as string;
    expect(payerPalm).toMatch(/^[0-9a-f]{64}$/);
    const historyOf = async (token: string) =>
      (await get('/api/transaction/history', token))
        .json()
        .transactions.find((t: { id: string }) => t.id === paid.json().transaction.id);
    expect(await historyOf(payer.token)).toMatchObject({ direction: 'sent', hand_hash: payerPalm });
    expect(await historyOf(receiver.token)).toMatchObject({ direction: 'received', hand_hash: null });
    // The dashboard's History tab too (it offers "Not me" on the payer's palm payments).
    const dashboardEntryOf = async (token: string) =>
      (await get('/api/dashboard', token))
        .json()
        .user.user_history.find((e: { txid?: string }) => e.txid === paid.json().transaction.id);
    expect(await dashboardEntryOf(payer.token)).toMatchObject({ hand_hash: payerPalm });
    expect(await dashboardEntryOf(receiver.token)).toMatchObject({ hand_hash: null });

    const stranger = await post('/Palm/authenticate', receiver.token, {
      amount: 1,
      scan: scanOf(8, [0, 1, 2]),
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(messages.palmNotRecognised);
    // Two frames of the payer's palm do not carry a scan whose third frame shows another palm.
    const mixed = scanOf(7, [16, 17]);
    mixed.frames.push(...scanOf(8, [3]).frames);
    const notOnePalm = await post('/Palm/authenticate', receiver.token, { amount: 1, scan: mixed });
    expect(notOnePalm.statusCode).toBe(400);
    expect(notOnePalm.json().message).toBe(messages.palmNotRecognised);
    expect(await balanceOf(payer.token)).toBe('749.50');
    const self = await post('/Palm/authenticate', payer.token, { amount: 1, scan: scanOf(7, [20, 21, 22]) });
    expect(self.json().message).toBe(messages.palmSelfPayment);
    const elsewhere = await post('/Palm/authenticate', receiver.token, {
      amount: 1,
      receiverEmail: payer.user.email,
      scan: scanOf(7, [23, 24, 25]),
    });
    expect(elsewhere.statusCode).toBe(403);
    const broke = await post('/Palm/authenticate', receiver.token, {
      amount: 800,
      scan: scanOf(7, [3, 4, 5]),
    });
    expect(broke.json().message).toBe(messages.insufficientFunds);
    expect(
      (await post('/Palm/authenticate', undefined, { amount: 1, scan: scanOf(7, [1]) })).statusCode,
    ).toBe(401);
    expect(await balanceOf(payer.token)).toBe('749.50');
    expect(await balanceOf(receiver.token)).toBe('250.50');
  });

  it('waits for the payer’s code above the palm limit: confirm, wrong codes, cancel, expiry, only its receiver', async () => {
    const phone = uniquePhone();
    const payer = await registerUser(test.app, test.database, { phone });
    const receiver = await registerUser(test.app, test.database);
    const other = await registerUser(test.app, test.database);
    await register(payer.token, 'left', scanOf(21, [0, 1, 2]));
    await give(payer.user.id, 20000);
    const pay = (amount: number, samples: number[], key?: string) =>
      post(
        '/Palm/authenticate',
        receiver.token,
        { amount, scan: scanOf(21, samples) },
        key === undefined ? {} : { 'idempotency-key': key },
      );
    const confirm = (id: string, otp: string, token = receiver.token) =>
      post('/Palm/authenticate/confirm', token, { payment_id: id, otp });
    const cancel = (id: string) => post('/Palm/authenticate/cancel', receiver.token, { payment_id: id });
    const payerAccount = await test.app.ledger.ensureUserAccount(payer.user.id);
    const reserved = async () => (await test.app.ledger.account(payerAccount))!.debitsPending;
    const codesSent = async () =>
      (
        await test.database.db
          .selectFrom('outbox_messages')
          .select('id')
          .where('to_address', '=', phone)
          .execute()
      ).length;
    const otherCode = (code: string) => (code === '000000' ? '111111' : '000000');

    // Above ₹5,000: the amount is reserved and the payer gets a code on their phone.
    const sentBefore = await codesSent();
    const waiting = await pay(6000, [10, 11, 12], 'big-1');
    expect(waiting.statusCode).toBe(202);
    const { confirmation } = waiting.json();
    expect(waiting.json()).toMatchObject({
      success: true,
      state: false,
      confirmation_required: true,
      message: messages.palmCodeSentPhone,
      confirmation: { channel: 'sms', sent_to: `••••${phone.slice(-4)}`, amount: '6000.00' },
    });
    expect(await reserved()).toBe(600_000n);
    const code = await lastCode(test.database, phone);
    // The same key again is the same waiting payment, and no second code.
    const again = await pay(6000, [13, 14, 15], 'big-1');
    expect([again.statusCode, again.json().confirmation.id]).toEqual([202, confirmation.id]);
    expect(await codesSent()).toBe(sentBefore + 1);
    // Only its receiver can confirm or cancel; a wrong code is refused.
    expect((await confirm(confirmation.id, code, other.token)).statusCode).toBe(404);
    expect(
      (await post('/Palm/authenticate/confirm', undefined, { payment_id: confirmation.id, otp: code }))
        .statusCode,
    ).toBe(401);
    expect(
      (await post('/Palm/authenticate/cancel', undefined, { payment_id: confirmation.id })).statusCode,
    ).toBe(401);
    expect(
      (await post('/Palm/authenticate/cancel', other.token, { payment_id: confirmation.id })).statusCode,
    ).toBe(404);
    const wrong = await confirm(confirmation.id, otherCode(code));
    expect([wrong.statusCode, wrong.json().message]).toEqual([400, messages.invalidVerificationCode]);
    const paid = await confirm(confirmation.id, code);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({
      authenticated: true,
      message: messages.authenticationSuccessful,
      transaction: { id: confirmation.id, amount: '6000.00', status: 'completed', direction: 'received' },
    });
    expect([await balanceOf(payer.token), await balanceOf(receiver.token), await reserved()]).toEqual([
      '14000.00',
      '6000.00',
      0n,
    ]);
    expect((await confirm(confirmation.id, code)).json().transaction.id).toBe(confirmation.id);
    expect((await cancel(confirmation.id)).json().message).toBe(messages.palmPaymentAlreadyConfirmed);

    // Cancelled: nothing paid, the code no longer works.
    const second = (await pay(5500, [16, 17, 18])).json().confirmation;
    const secondCode = await lastCode(test.database, phone);
    expect(await reserved()).toBe(550_000n);
    expect((await cancel(second.id)).json().message).toBe(messages.palmPaymentCancelled);
    expect(await reserved()).toBe(0n);
    expect((await confirm(second.id, secondCode)).json().message).toBe(messages.palmPaymentClosed);
    expect((await cancel(second.id)).statusCode).toBe(200);

    // Five wrong codes: given up.
    const third = (await pay(5001, [19, 20, 21])).json().confirmation;
    const thirdCode = await lastCode(test.database, phone);
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect((await confirm(third.id, otherCode(thirdCode))).statusCode).toBe(400);
    const fifth = await confirm(third.id, otherCode(thirdCode));
    expect([fifth.statusCode, fifth.json().message]).toEqual([429, messages.tooManyAttempts]);
    expect((await confirm(third.id, thirdCode)).json().message).toBe(messages.palmPaymentClosed);
    expect(await reserved()).toBe(0n);

    // At most 3 codes to one payer in 10 minutes: a fourth payment reserves nothing.
    const fourth = await pay(5002, [22, 23, 24]);
    expect([fourth.statusCode, fourth.json().message]).toEqual([429, messages.tooManyOtpRequests]);
    expect(await reserved()).toBe(0n);

    // Nobody confirms in time: the expiry round gives it up, or the late confirmation does.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 11 * 60_000);
      const fifthPayment = (await pay(5003, [25, 26, 27])).json().confirmation;
      const fifthCode = await lastCode(test.database, phone);
      vi.setSystemTime(Date.now() + 6 * 60_000);
      expect(await test.app.pendingExpiry.runOnce()).toContain(fifthPayment.id);
      expect((await confirm(fifthPayment.id, fifthCode)).json().message).toBe(messages.palmPaymentExpired);
      const sixth = (await pay(5004, [28, 29, 30])).json().confirmation;
      const sixthCode = await lastCode(test.database, phone);
      vi.setSystemTime(Date.now() + 6 * 60_000);
      const late = await confirm(sixth.id, sixthCode);
      expect([late.statusCode, late.json().message]).toEqual([409, messages.palmPaymentExpired]);
    } finally {
      vi.useRealTimers();
    }
    expect([await balanceOf(payer.token), await reserved()]).toEqual(['14000.00', 0n]);
    const outcomes = await test.database.db
      .selectFrom('palm_payment_confirmations')
      .select('outcome')
      .where('payer_user_id', '=', payer.user.id)
      .orderBy('created_at')
      .execute();
    expect(outcomes.map((row) => row.outcome)).toEqual(['paid', 'cancelled', 'failed', 'expired', 'expired']);
  });

  it('gives a payment above the palm limit up at once when the payer’s code cannot be sent', async () => {
    const payer = await registerUser(test.app, test.database, { phone: uniquePhone() });
    const receiver = await registerUser(test.app, test.database);
    await register(payer.token, 'left', scanOf(23, [0, 1, 2]));
    await give(payer.user.id, 20000);
    const logged: string[] = [];
    // The use case itself, with a messenger whose provider is down (no HTTP request in sight).
    const deps: PalmPaymentDeps = {
      palm: test.app.palm,
      ledger: test.app.ledger,
      pendingExpiry: test.app.pendingExpiry,
      payments: test.app.palmPayments,
      messenger: { send: () => Promise.reject(new Error('gateway down')) },
      replays: test.app.palmReplays,
      codeSecret: test.env.COOKIE_SECRET,
      log: { error: (_details, message) => logged.push(message) },
      limits: palmPayLimits(test.env),
      notices: test.app.palmNotices,
      notify: { db: test.database.db, messenger: test.app.messenger },
      rewards: test.app.rewards,
    };
    const input = {
      scan: scanOf(23, [3, 4, 5]),
      amountPaise: 600_000n,
      receiverUserId: receiver.user.id,
      creditAccountId: await test.app.ledger.ensureUserAccount(receiver.user.id),
      idempotencyKey: 'code-not-sent',
      linkOrigin: 'http://localhost',
      device: null,
      deviceId: null,
    };
    await expect(takePalmPayment(deps, input)).rejects.toThrow(messages.failedToSendOtpRetry);
    expect(logged).toEqual(['palm payment code not sent']);
    const payerAccount = await test.app.ledger.ensureUserAccount(payer.user.id);
    expect((await test.app.ledger.account(payerAccount))!.debitsPending).toBe(0n);
    expect(await balanceOf(payer.token)).toBe('20000.00');
    // The same key again is that payment, which is over: no code is sent for it now.
    await expect(takePalmPayment({ ...deps, messenger: test.app.messenger }, input)).rejects.toThrow(
      messages.palmPaymentClosed,
    );
    const outcomes = await test.database.db
      .selectFrom('palm_payment_confirmations')
      .select('outcome')
      .where('payer_user_id', '=', payer.user.id)
      .execute();
    expect(outcomes).toEqual([{ outcome: 'failed' }]);
  });

  it('takes a store’s palm payment above the palm limit once its owner enters the customer’s code', async () => {
    const merchant = await approvedMerchant(test.app, test.database, adminToken, 'Big Mart');
    const email = uniqueEmail('buyer');
    const customer = await registerUser(test.app, test.database, { email });
    await register(customer.token, 'right', scanOf(22, [0, 1, 2]));
    await give(customer.user.id, 9000);
    const waiting = await post('/api/transaction', merchant.token, {
      amount: 8000,
      scan: scanOf(22, [5, 6, 7]),
    });
    expect(waiting.statusCode).toBe(202);
    expect(waiting.json()).toMatchObject({
      message: messages.palmCodeSentEmail,
      confirmation: {
        channel: 'email',
        // The receiver sees the payer's address masked (issue 21).
        sent_to: `${email[0]}•••@${email[email.indexOf('@') + 1]}•••`,
      },
    });
    const id = waiting.json().confirmation.id as string;
    const code = await lastCode(test.database, email);
    const paid = await post('/Palm/authenticate/confirm', merchant.token, { payment_id: id, otp: code });
    expect(paid.statusCode).toBe(200);
    expect(await balanceOf(customer.token)).toBe('1000.00');
    expect((await get('/api/merchant/summary', merchant.token)).json()).toMatchObject({ balance: '8000.00' });
  });

  it('slows down a receiver whose scans keep recognising nobody: 5 in 15 minutes, 20 in a day', async () => {
    const payer = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    await register(payer.token, 'left', scanOf(14, [0, 1, 2]));
    await give(payer.user.id, 100);
    const attempt = (identity: number) =>
      post('/Palm/authenticate', receiver.token, { amount: 1, scan: scanOf(identity, [50, 51, 52]) });
    for (let i = 0; i < 5; i++)
      expect((await attempt(100 + i)).json().message).toBe(messages.palmNotRecognised);
    const limited = await attempt(14);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(messages.palmTooManyFailures);
    expect(await balanceOf(payer.token)).toBe('100.00');
    // Another receiver is not affected.
    const other = await registerUser(test.app, test.database);
    expect(
      (await post('/Palm/authenticate', other.token, { amount: 1, scan: scanOf(14, [53, 54, 55]) }))
        .statusCode,
    ).toBe(200);
    // After 15 minutes the receiver may try again, until 20 failures in a day.
    const age = (ms: number) =>
      test.database.db
        .updateTable('palm_scan_failures')
        .set({ created_at: new Date(Date.now() - ms) })
        .where('receiver_user_id', '=', receiver.user.id)
        .execute();
    await age(16 * 60_000);
    expect((await attempt(14)).statusCode).toBe(200);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) await attempt(200 + round * 5 + i);
      await age(16 * 60_000);
    }
    // 20 failures today, none in the last 15 minutes: the daily limit holds even the rightful payer.
    const daily = await attempt(14);
    expect(daily.statusCode).toBe(429);
    expect(daily.json().message).toBe(messages.palmTooManyFailures);
  });

  it('counts only scans that recognise nobody towards that limit, not unclear or refused ones', async () => {
    const payer = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    await register(payer.token, 'left', scanOf(16, [0, 1, 2]));
    await give(payer.user.id, 100);
    const flat = Buffer.alloc(128 * 128, 120).toString('base64');
    for (let i = 0; i < 5; i++) {
      const unclear = await post('/Palm/authenticate', receiver.token, {
        amount: 1,
        scan: { frames: [flat], source: 'camera' },
      });
      expect([unclear.statusCode, unclear.json().message]).toEqual([400, messages.palmScanUnclear]);
    }
    // The payer's own palm paying themselves is refused, and is no unrecognised scan either.
    const self = await post('/Palm/authenticate', payer.token, { amount: 1, scan: scanOf(16, [3, 4, 5]) });
    expect(self.json().message).toBe(messages.palmSelfPayment);
    const paid = await post('/Palm/authenticate', receiver.token, { amount: 1, scan: scanOf(16, [6, 7, 8]) });
    expect(paid.statusCode).toBe(200);
    const failures = await test.database.db
      .selectFrom('palm_scan_failures')
      .select('id')
      .where('receiver_user_id', 'in', [receiver.user.id, payer.user.id])
      .execute();
    expect(failures).toHaveLength(0);
  });

  it('takes a palm payment into the signed-in merchant’s store, and only for a merchant', async () => {
    const merchant = await approvedMerchant(test.app, test.database, adminToken, 'Palm Mart');
    const customer = await registerUser(test.app, test.database);
    await register(customer.token, 'left', scanOf(9, [0, 1, 2]));
    await give(customer.user.id, 100);
    const refused = await post('/api/transaction', customer.token, { amount: 10, scan: scanOf(9, [5, 6]) });
    expect(refused.statusCode).toBe(403);
    const paid = await post('/api/transaction', merchant.token, { amount: 42, scan: scanOf(9, [5, 6, 7]) });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().message).toBe(messages.paymentProcessed);
    const summary = (await get('/api/merchant/summary', merchant.token)).json();
    expect(summary).toMatchObject({ balance: '42.00', total_palm_scans: 1 });
    expect(await balanceOf(customer.token)).toBe('58.00');
  });

  it('stops palm payments when consent is withdrawn, resumes them when it is given again, and erases', async () => {
    const payer = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    await register(payer.token, 'left', scanOf(10, [0, 1, 2]));
    await give(payer.user.id, 100);
    const pay = () =>
      post('/Palm/authenticate', receiver.token, { amount: 1, scan: scanOf(10, [30, 31, 32]) });

    expect((await get('/api/consent', payer.token)).json().status).toBe('active');
    expect((await post('/api/consent/withdraw', payer.token, {})).json().message).toBe(
      messages.palmConsentWithdrawn,
    );
    expect((await get('/api/consent', payer.token)).json().status).toBe('withdrawn');
    expect((await pay()).json().message).toBe(messages.palmNotRecognised);
    expect((await post('/api/consent/withdraw', payer.token, {})).statusCode).toBe(409);

    expect((await post('/api/consent/restore', payer.token, {})).statusCode).toBe(200);
    const payment = await pay();
    expect(payment.statusCode).toBe(200);
    await test.app.transparencyLog.flush();
    const consent = (await get('/api/consent', payer.token)).json();
    expect(consent.events.map((e: { type: string }) => e.type)).toEqual([
      'consent.granted',
      'consent.withdrawn',
      'palm.enrolled',
      'consent.granted',
    ]);
    const receipt = await get(`/api/receipts/${consent.events[0].id}`, payer.token);
    expect(receipt.statusCode).toBe(200);
    expect((await get(`/api/receipts/${consent.events[0].id}`, receiver.token)).statusCode).toBe(404);

    const entry = await test.database.db
      .selectFrom('tlog_entries')
      .select('idx')
      .where('ref_id', '=', consent.events[0].id)
      .executeTakeFirstOrThrow();
    expect(await test.app.transparencyLog.openRecord(Number(entry.idx))).not.toBeNull();
    const paidWith = async () =>
      (await get('/api/transaction/history', payer.token))
        .json()
        .transactions.find((t: { id: string }) => t.id === payment.json().transaction.id);
    expect((await paidWith()).hand_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await post('/api/consent/erase', payer.token, {})).json().message).toBe(messages.palmDataErased);
    const erased = (await get('/api/consent', payer.token)).json();
    expect(erased.status).toBe('none');
    expect(erased.hands).toEqual([]);
    expect(erased.events[0].type).toBe('palm.erased');
    // An erased palm's hash is gone from the payer's history too.
    expect(await paidWith()).toMatchObject({ direction: 'sent', hand_hash: null });
    expect((await pay()).json().message).toBe(messages.palmNotRecognised);
    const key = await test.database.db
      .selectFrom('user_data_keys')
      .selectAll()
      .where('user_id', '=', payer.user.id)
      .executeTakeFirstOrThrow();
    expect(key.wrapped_key).toBeNull();
    expect((await post('/api/consent/erase', payer.token, {})).statusCode).toBe(409);
    // After the erasure every receipt still verifies: the receiver's payment and the payer's consent.
    await test.app.transparencyLog.flush();
    const verifierKey = (await get('/api/log/key', adminToken)).json().verifier_key as string;
    const paymentReceipt = await get(`/api/receipts/${payment.json().transaction.id}`, receiver.token);
    expect(verifyReceipt(paymentReceipt.json(), verifierKey).ok).toBe(true);
    const consentReceipt = await get(`/api/receipts/${consent.events[0].id}`, adminToken);
    expect(verifyReceipt(consentReceipt.json(), verifierKey).ok).toBe(true);
    // The payer's records can no longer be opened.
    expect(await test.app.transparencyLog.openRecord(Number(entry.idx))).toBeNull();
    // The palm can be registered again after an erasure (a new consent, a new template).
    expect((await register(payer.token, 'left', scanOf(10, [40, 41, 42]))).statusCode).toBe(200);
  });

  it('never stores or logs the scan or anything readable from it', async () => {
    const user = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    const scan = scanOf(11, [0, 1, 2]);
    await register(user.token, 'right', scan);
    await give(user.user.id, 10);
    const payment = scanOf(11, [7, 8, 9]);
    expect((await post('/Palm/authenticate', receiver.token, { amount: 1, scan: payment })).statusCode).toBe(
      200,
    );
    await test.app.transparencyLog.flush();

    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`.execute(
      test.database.db,
    );
    let dump = '';
    for (const { table_name } of tables.rows) {
      const rows = await sql<{
        row: string;
      }>`SELECT row_to_json(t)::text AS row FROM ${sql.table(table_name)} t`.execute(test.database.db);
      dump += rows.rows.map((r) => r.row).join('\n');
    }
    expect(dump.length).toBeGreaterThan(1000);
    for (const frame of [...framesOf(11, [0, 1, 2]), ...framesOf(11, [7, 8, 9])]) {
      // Any 48-byte run of a frame, as base64 or as hex (how bytea reads back).
      const base64 = Buffer.from(frame).toString('base64');
      const hex = Buffer.from(frame).toString('hex');
      for (const at of [0, 4096, 8192, 12_000]) {
        expect(dump).not.toContain(base64.slice((at / 3) * 4, (at / 3) * 4 + 64));
        expect(dump).not.toContain(hex.slice(at * 2, at * 2 + 96));
        expect(test.logs()).not.toContain(base64.slice((at / 3) * 4, (at / 3) * 4 + 64));
      }
    }
    const stored = await test.database.db.selectFrom('palm_templates').selectAll().execute();
    expect(stored.length).toBeGreaterThan(0);
  });

  it('refuses demo palms when the demo mode is off, and takes the camera’s', async () => {
    const strict = await buildTestApp({ env: { PALM_DEMO_MODE: 'false' } });
    try {
      const { token } = await registerUser(strict.app, strict.database);
      const config = await strict.app.inject({ method: 'GET', url: '/Palm/config' });
      expect(config.json()).toEqual({ demo_mode: false, max_payment: '5000.00' });
      const demo = await registerPalm(strict.app, token, 'left', scanOf(12, [0, 1, 2]));
      expect(demo.json().message).toBe(messages.palmDemoDisabled);
      const camera = await registerPalm(strict.app, token, 'left', scanOf(12, [0, 1, 2], 'camera'));
      expect(camera.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('keeps every palm in a right hand’s orientation: a left hand from the guide box matches a landmark scan', async () => {
    const options = { demoMode: true, maxPaymentPaise: 500_000n };
    const key = palmKeyFrom('m'.repeat(40));
    const service = new PalmService(test.database.db, { current: key, previous: undefined }, options);
    await service.init();
    const user = await registerUser(test.app, test.database);
    // Registered through the guide box (the frames as the camera saw the left hand).
    await service.enrol(user.user.id, 'left', scanOf(15, [0, 1, 2]));
    const later = framesOf(15, [5, 6, 7]);
    const asScan = (frames: Uint8Array[], roi?: PalmScan['roi']): PalmScan => ({
      frames: frames.map((f) => Buffer.from(f).toString('base64')),
      source: 'demo',
      ...(roi ? { roi } : {}),
    });
    // The landmark ROI mirrors a left hand in the browser: that scan is recognised as it comes.
    expect((await service.identify(asScan(later.map(mirrorFrame), 'landmarks'))).userId).toBe(user.user.id);
    // Guide-box scans of an unknown hand are searched both ways round.
    expect((await service.identify(asScan(later, 'guide-box'))).userId).toBe(user.user.id);
    expect((await service.identify(asScan(later))).userId).toBe(user.user.id);
    // A landmark scan is taken as oriented: the left hand un-mirrored is not this palm.
    const unrecognised = service.identify(asScan(later, 'landmarks'));
    await expect(unrecognised).rejects.toThrow(messages.palmNotRecognised);
    // Payments count unrecognised scans by this type (take-palm-payment.ts), not by the message.
    await expect(unrecognised).rejects.toBeInstanceOf(PalmNotRecognisedError);
    await service.close();
  });

  it('rotates the template key: palms of the previous key are recognised and re-made under the new one', async () => {
    const db = test.database.db;
    const options = { demoMode: true, maxPaymentPaise: 500_000n };
    const oldKey = palmKeyFrom('o'.repeat(40));
    const newKey = palmKeyFrom('n'.repeat(40));
    const user = await registerUser(test.app, test.database);
    const before = new PalmService(db, { current: oldKey, previous: undefined }, options);
    await before.init();
    await before.enrol(user.user.id, 'left', scanOf(13, [0, 1, 2]));
    const stored = () =>
      db
        .selectFrom('palm_templates')
        .selectAll()
        .where('user_id', '=', user.user.id)
        .executeTakeFirstOrThrow();
    const old = await stored();
    expect(old.key_id).toBe(oldKey.keyIdHex);

    // Without the old key, the template cannot be matched; with it as previous, it is, and is renewed.
    const withoutOld = new PalmService(db, { current: newKey, previous: undefined }, options);
    await withoutOld.init();
    await expect(withoutOld.identify(scanOf(13, [5, 6, 7]))).rejects.toThrow(messages.palmNotRecognised);
    const rotating = new PalmService(db, { current: newKey, previous: oldKey }, options);
    await rotating.init();
    expect((await rotating.identify(scanOf(13, [5, 6, 7]))).userId).toBe(user.user.id);
    const renewed = await stored();
    expect(renewed.key_id).toBe(newKey.keyIdHex);
    expect(renewed.palm_hash).not.toBe(old.palm_hash);
    const after = new PalmService(db, { current: newKey, previous: undefined }, options);
    await after.init();
    expect((await after.identify(scanOf(13, [8, 9, 10]))).userId).toBe(user.user.id);
  });

  it('recognises a palm registered as a version-1 template and re-makes it as the current version', async () => {
    const db = test.database.db;
    const options = { demoMode: true, maxPaymentPaise: 500_000n };
    const secret = 'v'.repeat(40);
    const version1 = palmKeyFrom(secret, VERSION_1_PROTECTION);
    const current = palmKeyFrom(secret);
    // One secret, two template versions: two key ids, so their templates are never compared with each other.
    expect(version1.keyIdHex).not.toBe(current.keyIdHex);
    const user = await registerUser(test.app, test.database);
    const before = new PalmService(db, { current: version1, previous: undefined }, options);
    await before.init();
    await before.enrol(user.user.id, 'right', scanOf(16, [0, 1, 2]));
    const stored = () =>
      db
        .selectFrom('palm_templates')
        .selectAll()
        .where('user_id', '=', user.user.id)
        .executeTakeFirstOrThrow();
    const old = await stored();
    expect(old.key_id).toBe(version1.keyIdHex);

    // The current version alone does not read it; with the version-1 key beside it, it is matched and renewed.
    const withoutLegacy = new PalmService(db, { current, previous: undefined }, options);
    await withoutLegacy.init();
    await expect(withoutLegacy.identify(scanOf(16, [5, 6, 7]))).rejects.toThrow(messages.palmNotRecognised);
    const upgrading = new PalmService(db, { current, previous: undefined, legacy: [version1] }, options);
    await upgrading.init();
    expect((await upgrading.identify(scanOf(16, [5, 6, 7]))).userId).toBe(user.user.id);
    const renewed = await stored();
    expect(renewed.key_id).toBe(current.keyIdHex);
    expect(renewed.palm_hash).not.toBe(old.palm_hash);
    const after = new PalmService(db, { current, previous: undefined }, options);
    await after.init();
    expect((await after.identify(scanOf(16, [8, 9, 10]))).userId).toBe(user.user.id);
  });
});
