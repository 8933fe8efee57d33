import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger, SYSTEM_ACCOUNT_ID } from '../src/ledger/ledger';
import {
  bearer,
  lastCode,
  lastMessage,
  registerUser,
  signInAsAdmin,
  uniqueEmail,
} from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Attacks on a store (issue 23, item 7): a contact address the owner does not own shown to payers, and a
 * stolen session alone adding a bank account or withdrawing the store's money without the owner knowing.
 */
describe(`store attacks on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
    test.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? bearer(token) : {} });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  async function approvedMerchant() {
    const email = uniqueEmail('shop');
    await call('POST', '/api/vendor-registration', undefined, {
      business_name: 'Chai Point',
      owner_name: 'Lakshmi',
      email,
      phone: '9876543210',
      address: 'Koramangala',
      interests: ['PalmPOS Integration'],
    });
    const vendor = (await call('GET', '/api/vendor-registration', adminToken))
      .json()
      .registrations.find((r: { email: string }) => r.email === email);
    const approved = await call('POST', '/api/merchants', adminToken, { vendorRegistrationId: vendor.id });
    const temporary = /temporary password (\S+)\./.exec((await lastMessage(test.database, email)).body)![1]!;
    const login = (await call('POST', '/api/auth/login', undefined, { email, password: temporary })).json();
    const changed = await call('POST', '/api/auth/change-password', login.token, {
      originalPassword: temporary,
      newPassword: 'shop owner secret',
    });
    return {
      token: changed.json().token as string,
      merchantId: approved.json().merchant.id as string,
      email,
    };
  }

  /** A customer pays the store straight through the ledger; answers the customer's session. */
  async function pay(merchantId: string, paise: bigint): Promise<string> {
    const ledger = new Ledger(test.database.db);
    const customer = await registerUser(test.app, test.database);
    const from = await ledger.ensureUserAccount(customer.user.id);
    await ledger.transfer({
      id: crypto.randomUUID(),
      debitAccountId: SYSTEM_ACCOUNT_ID,
      creditAccountId: from,
      amountPaise: paise,
      kind: 'issuance',
    });
    await ledger.transfer({
      id: crypto.randomUUID(),
      debitAccountId: from,
      creditAccountId: await ledger.ensureMerchantAccount(merchantId),
      amountPaise: paise,
      kind: 'payment',
    });
    return customer.token;
  }

  const settings = (contactEmail: string | null, contactPhone: string | null) => ({
    store_name: 'Chai Point',
    contact_email: contactEmail,
    contact_phone: contactPhone,
    notify_email: true,
    notify_sms: false,
  });

  it('never shows payers a contact address the store has not verified', async () => {
    const { token, merchantId } = await approvedMerchant();
    const forged = uniqueEmail('support-of-a-bank');
    expect(
      (await call('PUT', '/api/merchant/settings', token, settings(forged, '+919999900000'))).statusCode,
    ).toBe(200);
    const payer = await pay(merchantId, 1_000n);
    const history = await call('GET', '/api/dashboard/history', payer);
    expect(history.statusCode).toBe(200);
    expect(history.body).not.toContain(forged);
    expect(history.body).not.toContain('+919999900000');

    // The store's owner sees the address as waiting for its code; the code went to that address.
    expect((await call('GET', '/api/merchant/settings', token)).json()).toMatchObject({
      contact_email: forged,
      contact_email_verified: false,
    });
    const otp = await lastCode(test.database, forged);
    const wrong = await call('POST', '/api/merchant/settings/verify-contact', token, {
      channel: 'email',
      otp: otp === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect((await call('GET', '/api/dashboard/history', payer)).body).not.toContain(forged);

    // Once the code sent to the address comes back, payers see it.
    const verified = await call('POST', '/api/merchant/settings/verify-contact', token, {
      channel: 'email',
      otp,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ contact_email: forged, contact_email_verified: true });
    expect((await call('GET', '/api/dashboard/history', payer)).body).toContain(forged);
  });

  it('texts a store contact code only to an allowed country prefix, and counts it against the SMS budget', async () => {
    const { token } = await approvedMerchant();
    const smsTo = async (phone: string) =>
      (
        await test.database.db
          .selectFrom('outbox_messages')
          .select('id')
          .where('to_address', '=', phone)
          .execute()
      ).length;
    const budgetRows = async (phone: string) =>
      (
        await test.database.db
          .selectFrom('otp_events')
          .select('id')
          .where('identifier', '=', phone)
          .where('kind', '=', 'sms')
          .execute()
      ).length;

    // A foreign number the store names is the SMS-pumping route of issue 23 item 5: refused, nothing sent,
    // nothing saved.
    const before = (await call('GET', '/api/merchant/settings', token)).json();
    const foreign = '+447700900123';
    const refused = await call('PUT', '/api/merchant/settings', token, settings(null, foreign));
    expect([refused.statusCode, refused.json().message]).toEqual([400, messages.smsCountryNotAllowed]);
    expect(await smsTo(foreign)).toBe(0);
    expect((await call('GET', '/api/merchant/settings', token)).json()).toEqual(before);

    // An Indian number gets its code, and that text counts against the client's and the global budgets.
    const indian = '+919812345678';
    const saved = await call('PUT', '/api/merchant/settings', token, settings(null, indian));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await smsTo(indian)).toBe(1);
    expect(await budgetRows(indian)).toBe(1);
  });

  it('refuses a bank account and a withdrawal to a session without a fresh step-up, and tells the owner', async () => {
    const { token, merchantId, email } = await approvedMerchant();
    await pay(merchantId, 20_000n);
    const account = { holder_name: 'Thief', account_number: '999988887777', ifsc: 'HDFC0001234' };
    const added = await call('POST', '/api/merchant/bank-accounts', token, account);
    expect(added.statusCode).toBe(403);
    expect(added.json().message).toBe(messages.stepUpRequired);
    expect((await call('GET', '/api/merchant/bank-accounts', token)).json().bank_accounts).toEqual([]);

    // The owner's code (to the owner's own address, not one the caller names) opens it for 5 minutes.
    const sent = await call('POST', '/Palm/step-up/send', token, { purpose: 'store_bank_account' });
    expect(sent.statusCode, sent.body).toBe(200);
    const otp = await lastCode(test.database, email);
    expect(
      (await call('POST', '/Palm/step-up/verify', token, { purpose: 'store_bank_account', otp })).statusCode,
    ).toBe(200);
    const saved = await call('POST', '/api/merchant/bank-accounts', token, account);
    expect(saved.statusCode, saved.body).toBe(200);
    const notice = await lastMessage(test.database, email);
    expect(notice.body).toContain('bank account');
    expect(notice.body).toContain('7777');
    const bankId = saved.json().bank_accounts[0].id as string;

    // The bank account's step-up does not open withdrawals.
    const withdrawal = await call('POST', '/api/merchant/withdrawals', token, {
      amount: 100,
      bank_account_id: bankId,
    });
    expect(withdrawal.statusCode).toBe(403);
    expect(withdrawal.json().message).toBe(messages.stepUpRequired);
    await call('POST', '/Palm/step-up/send', token, { purpose: 'store_withdrawal' });
    const withdrawOtp = await lastCode(test.database, email);
    expect(
      (await call('POST', '/Palm/step-up/verify', token, { purpose: 'store_withdrawal', otp: withdrawOtp }))
        .statusCode,
    ).toBe(200);
    const done = await call('POST', '/api/merchant/withdrawals', token, {
      amount: 100,
      bank_account_id: bankId,
    });
    expect(done.statusCode, done.body).toBe(200);
    const withdrawNotice = await lastMessage(test.database, email);
    expect(withdrawNotice.body).toContain('withdrawal of Rs 100.00');
  });
});
