import { amountMinimumMessage, balanceLimitMessage, messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  lastCode,
  passCooldown,
  registerUser,
  signInAsAdmin,
  uniquePhone,
} from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/** A server configured with other limits than RBI's defaults: a ₹1,000 wallet, ₹1 the smallest amount. */
describe(`the ledger's limits from the environment on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const post = (url: string, token: string, payload: object) =>
    test.app.inject({ method: 'POST', url, payload, headers: bearer(token) });

  beforeAll(async () => {
    test = await buildTestApp({
      env: { LEDGER_MAX_BALANCE_PAISE: '100000', LEDGER_MIN_AMOUNT_PAISE: '100' },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  it('refuses in the configured limits’ words, on every path money takes', async () => {
    expect(balanceLimitMessage('₹2,00,000')).toBe(messages.balanceLimitExceeded);
    const phone = uniquePhone();
    const asha = await registerUser(test.app, test.database, { phone });
    const ravi = await registerUser(test.app, test.database, { phone: uniquePhone() });
    const assign = (amount: number) =>
      post('/api/assignBalance', adminToken, { userId: asha.user.id, amount });
    const balance = async () =>
      (await test.app.inject({ method: 'GET', url: '/api/dashboard', headers: bearer(asha.token) })).json()
        .user.balance;

    for (const [amount, message] of [
      [1000.01, balanceLimitMessage('₹1,000')],
      [0.5, amountMinimumMessage('₹1')],
      [1e12, balanceLimitMessage('₹1,000')],
    ] as const) {
      const refused = await assign(amount);
      expect([refused.statusCode, refused.json().message]).toEqual([400, message]);
    }
    const ok = await assign(1000);
    expect(ok.statusCode).toBe(200);
    const over = await assign(1);
    expect([over.statusCode, over.json().message]).toEqual([400, balanceLimitMessage('₹1,000')]);
    expect(await balance()).toBe('1000.00');

    // A transfer, after its OTP: under the smallest amount it is refused (and spends its verification).
    const verify = async () => {
      await passCooldown(test.database, phone);
      expect((await post('/api/send-sms-otp', asha.token, { phone })).statusCode).toBe(200);
      const otp = await lastCode(test.database, phone);
      expect((await post('/api/verify-sms-otp', asha.token, { phone, otp })).statusCode).toBe(200);
    };
    await verify();
    const small = await post('/api/transfer', asha.token, { receiverPhone: ravi.user.phone, amount: 0.99 });
    expect([small.statusCode, small.json().message]).toEqual([400, amountMinimumMessage('₹1')]);
    await verify();
    const sent = await post('/api/transfer', asha.token, { receiverPhone: ravi.user.phone, amount: 1 });
    expect(sent.statusCode).toBe(200);
    expect(await balance()).toBe('999.00');
  });
});
