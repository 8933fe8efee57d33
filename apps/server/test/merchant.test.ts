import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Ledger, SYSTEM_ACCOUNT_ID } from '../src/ledger/ledger';
import {
  bearer,
  lastCode,
  lastMessage,
  registerUser,
  uniqueEmail,
  signInAsAdmin,
  logIn,
} from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { stepUp } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Every merchant route of the API, with a body that would pass validation. */
const MERCHANT_ROUTES = [
  ['GET', '/api/merchant/summary', undefined],
  ['GET', '/api/merchant/payments', undefined],
  ['GET', '/api/merchant/settings', undefined],
  [
    'PUT',
    '/api/merchant/settings',
    { store_name: 'Taken', contact_email: null, contact_phone: null, notify_email: true, notify_sms: false },
  ],
  ['GET', '/api/merchant/bank-accounts', undefined],
  [
    'POST',
    '/api/merchant/bank-accounts',
    { holder_name: 'X', account_number: '123456789', ifsc: 'HDFC0001234' },
  ],
  ['GET', '/api/merchant/withdrawals', undefined],
  ['POST', '/api/merchant/withdrawals', { amount: 1, bank_account_id: SOME_ID }],
  ['GET', '/api/merchant/qr-codes', undefined],
  ['POST', '/api/merchant/qr-codes', { amount: 10, label: 'Till' }],
  ['POST', '/api/transaction', { amount: 10, scan: { frames: ['AAAA'], source: 'demo' } }],
  ['POST', '/api/merchant/settings/verify-contact', { channel: 'email', otp: '123456' }],
  ['POST', '/api/merchant/settings/verify-contact/send', { channel: 'email' }],
] as const;

describe(`merchants on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
    test.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? bearer(token) : {} });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000', ...RAISED_PALM_RATE_LIMITS } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  /** A vendor registers, an admin approves, the owner logs in with the emailed password and replaces it. */
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
    expect(approved.statusCode).toBe(200);
    expect(approved.json().merchant.store_name).toBe('Chai Point');
    const temporary = /temporary password (\S+)\./.exec((await lastMessage(test.database, email)).body)![1]!;
    // The owner's first sign-in registers their passkey (issue 23; support/auth-helpers.ts logIn), and says
    // it is their first (not a reset by an administrator).
    const login = await logIn(test.app, { email, password: temporary });
    expect(login.user).toMatchObject({ role: 'merchant', must_change_password: true, first_sign_in: true });
    const changed = await call('POST', '/api/auth/change-password', login.token, {
      originalPassword: temporary,
      newPassword: 'shop owner secret',
    });
    // Bank accounts and withdrawals need the owner's fresh step-up (store-attacks.test.ts shows why).
    await stepUp(test.app, changed.json().token as string, 'store_bank_account');
    await stepUp(test.app, changed.json().token as string, 'store_withdrawal');
    return {
      token: changed.json().token as string,
      merchantId: approved.json().merchant.id as string,
      vendorId: vendor.id as string,
      email,
    };
  }

  /** A customer pays the store (as the palm and QR issues will): straight through the ledger. */
  async function pay(merchantId: string, paise: bigint) {
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
  }

  it('turns an approved vendor into a merchant once, and only an admin can', async () => {
    const { vendorId, token } = await approvedMerchant();
    expect(
      (await call('POST', '/api/merchants', adminToken, { vendorRegistrationId: vendorId })).statusCode,
    ).toBe(409);
    expect((await call('POST', '/api/merchants', token, { vendorRegistrationId: vendorId })).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/api/merchants', adminToken)).json().merchants.length).toBeGreaterThan(0);
  });

  it('computes the summary from the ledger', async () => {
    const { token, merchantId } = await approvedMerchant();
    await pay(merchantId, 10_000n);
    await pay(merchantId, 5_000n);
    const summary = (await call('GET', '/api/merchant/summary', token)).json();
    expect(summary).toMatchObject({
      store_name: 'Chai Point',
      balance: '150.00',
      total_sales: '150.00',
      total_transactions: 2,
      average_transaction: '75.00',
      success_rate: 100,
      total_customers: 2,
      total_palm_scans: 2,
      total_withdrawals: '0.00',
    });
    const payments = (await call('GET', '/api/merchant/payments', token)).json().payments;
    expect(payments.map((p: { amount: string }) => p.amount)).toEqual(['50.00', '100.00']);
  });

  it('keeps merchant pages to merchants', async () => {
    const { token } = await registerUser(test.app, test.database);
    for (const url of [
      '/api/merchant/summary',
      '/api/merchant/payments',
      '/api/merchant/settings',
      '/api/merchant/withdrawals',
    ]) {
      const response = await call('GET', url, token);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(messages.merchantOnly);
    }
  });

  it.each(MERCHANT_ROUTES)(
    '%s %s answers 401 to nobody and 403 to a user and an admin, changing nothing',
    async (method, url, payload) => {
      const { token: userToken } = await registerUser(test.app, test.database);
      const request = (headers: Record<string, string>) =>
        test.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      const rowCounts = () =>
        Promise.all(
          (
            ['merchant_bank_accounts', 'merchant_payouts', 'merchant_qr_codes', 'ledger_transfers'] as const
          ).map(async (table) => (await test.database.db.selectFrom(table).select('id').execute()).length),
        );
      const before = await rowCounts();
      expect((await request({})).statusCode).toBe(401);
      for (const token of [userToken, adminToken]) {
        const refused = await request(bearer(token));
        expect(refused.statusCode).toBe(403);
        expect(refused.json().message).toBe(messages.merchantOnly);
      }
      expect(await rowCounts()).toEqual(before);
      const stores = await test.database.db.selectFrom('merchants').select('store_name').execute();
      expect(stores.map((store) => store.store_name)).not.toContain('Taken');
    },
  );

  it('lists every route the API documents as a merchant route', async () => {
    const spec = (await call('GET', '/api/openapi.json')).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const documented = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.includes('merchant'))
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, SOME_ID)}`),
    );
    expect(documented.sort()).toEqual(MERCHANT_ROUTES.map(([method, url]) => `${method} ${url}`).sort());
  });

  it("keeps one merchant out of another's store: bank accounts, withdrawals, codes, payments, settings", async () => {
    const shop = await approvedMerchant();
    const rival = await approvedMerchant();
    await pay(shop.merchantId, 10_000n);
    await pay(rival.merchantId, 10_000n);
    const shopBank = (
      await call('POST', '/api/merchant/bank-accounts', shop.token, {
        holder_name: 'Lakshmi',
        account_number: '123456789012',
        ifsc: 'HDFC0001234',
      })
    ).json().bank_accounts[0].id as string;
    await call('POST', '/api/merchant/qr-codes', shop.token, { label: 'Shop till' });
    await call('POST', '/api/merchant/withdrawals', shop.token, { amount: 10, bank_account_id: shopBank });

    // The rival names the shop's bank account: not theirs, so not found, and no money moves.
    const stolen = await call('POST', '/api/merchant/withdrawals', rival.token, {
      amount: 50,
      bank_account_id: shopBank,
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe(messages.bankAccountNotFound);
    expect((await call('GET', '/api/merchant/summary', rival.token)).json().balance).toBe('100.00');

    for (const [url, key] of [
      ['/api/merchant/bank-accounts', 'bank_accounts'],
      ['/api/merchant/withdrawals', 'withdrawals'],
      ['/api/merchant/qr-codes', 'qr_codes'],
    ] as const) {
      expect((await call('GET', url, rival.token)).json()[key], url).toEqual([]);
      expect((await call('GET', url, shop.token)).json()[key], url).toHaveLength(1);
    }
    expect((await call('GET', '/api/merchant/payments', rival.token)).json().payments).toHaveLength(1);

    await call('PUT', '/api/merchant/settings', rival.token, {
      store_name: 'Rival Store',
      contact_email: null,
      contact_phone: null,
      notify_email: false,
      notify_sms: false,
    });
    expect((await call('GET', '/api/merchant/settings', shop.token)).json().store_name).toBe('Chai Point');
  });

  it('answers bad input with 400, never 500', async () => {
    const { token } = await approvedMerchant();
    const bad: [string, string, unknown][] = [
      ['PUT', '/api/merchant/settings', { store_name: '', contact_email: null, contact_phone: null }],
      [
        'PUT',
        '/api/merchant/settings',
        { store_name: 'x', contact_email: 'nope', contact_phone: null, notify_email: true, notify_sms: true },
      ],
      [
        'PUT',
        '/api/merchant/settings',
        { store_name: 'x', contact_email: null, contact_phone: null, notify_email: 'yes', notify_sms: true },
      ],
      [
        'POST',
        '/api/merchant/bank-accounts',
        { holder_name: 'X', account_number: '12ab', ifsc: 'HDFC0001234' },
      ],
      [
        'POST',
        '/api/merchant/bank-accounts',
        { holder_name: 'X', account_number: '123456789', ifsc: 'HDFC1234' },
      ],
      ['POST', '/api/merchant/withdrawals', { amount: 1, bank_account_id: 'not-a-uuid' }],
      ['POST', '/api/merchant/withdrawals', { amount: -1, bank_account_id: SOME_ID }],
      ['POST', '/api/merchant/withdrawals', { amount: 1.234, bank_account_id: SOME_ID }],
      ['POST', '/api/merchant/withdrawals', { amount: '1', bank_account_id: SOME_ID }],
      ['POST', '/api/merchant/qr-codes', { amount: 'ten' }],
      ['POST', '/api/merchant/qr-codes', []],
    ];
    for (const [method, url, payload] of bad) {
      const response = await test.app.inject({
        method: method as 'PUT' | 'POST',
        url,
        headers: bearer(token),
        payload: payload as object,
      });
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${response.body}`).toBe(400);
    }
  });

  it('saves settings', async () => {
    const { token } = await approvedMerchant();
    const saved = await call('PUT', '/api/merchant/settings', token, {
      store_name: 'Chai Point, HSR',
      contact_email: 'hsr@chai.in',
      contact_phone: '+918040000000',
      notify_email: false,
      notify_sms: true,
    });
    expect(saved.statusCode).toBe(200);
    expect((await call('GET', '/api/merchant/settings', token)).json()).toMatchObject({
      store_name: 'Chai Point, HSR',
      notify_sms: true,
    });
  });

  it('reserves a withdrawal until an admin settles or rejects it', async () => {
    const { token, merchantId, email } = await approvedMerchant();
    await pay(merchantId, 20_000n);
    expect(
      (
        await call('POST', '/api/merchant/bank-accounts', token, {
          holder_name: 'L',
          account_number: '12',
          ifsc: 'X',
        })
      ).statusCode,
    ).toBe(400);
    const banks = (
      await call('POST', '/api/merchant/bank-accounts', token, {
        holder_name: 'Lakshmi',
        account_number: '123456789012',
        ifsc: 'hdfc0001234',
      })
    ).json();
    expect(banks.bank_accounts[0]).toEqual({
      id: expect.any(String),
      holder_name: 'Lakshmi',
      account_number_last4: '9012',
      ifsc: 'HDFC0001234',
    });
    const bankId = banks.bank_accounts[0].id;

    expect(
      (
        await call('POST', '/api/merchant/withdrawals', token, { amount: 500, bank_account_id: bankId })
      ).json().message,
    ).toBe(messages.insufficientFunds);
    expect(
      (await call('POST', '/api/merchant/withdrawals', token, { amount: 120, bank_account_id: bankId }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('POST', '/api/merchant/withdrawals', token, { amount: 50, bank_account_id: bankId }))
        .statusCode,
    ).toBe(200);
    // 170 of 200 reserved: 31 more would overdraw.
    expect(
      (await call('POST', '/api/merchant/withdrawals', token, { amount: 31, bank_account_id: bankId }))
        .statusCode,
    ).toBe(400);

    expect((await call('GET', '/api/merchant/summary', token)).json()).toMatchObject({
      balance: '200.00',
      available_balance: '30.00',
    });
    // The Withdrawals card counts what is still pending apart from what was settled.
    expect((await call('GET', '/api/merchant/summary', token)).json()).toMatchObject({
      total_withdrawals: '0.00',
      pending_withdrawal_count: 2,
      pending_withdrawals: '170.00',
    });
    const pending = (await call('GET', '/api/merchant/withdrawals', token)).json().withdrawals;
    expect(pending.map((w: { amount: string; status: string }) => [w.amount, w.status])).toEqual([
      ['50.00', 'pending'],
      ['120.00', 'pending'],
    ]);
    expect(
      (await call('POST', `/api/payouts/${pending[1].id}`, token, { action: 'settle' })).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `/api/payouts/${pending[1].id}`, adminToken, { action: 'settle' })).json().message,
    ).toBe(messages.payoutSettled);
    // The store's settings chose email notices (the default) to its contact email.
    expect((await lastMessage(test.database, email)).body).toBe(
      'Your withdrawal of Rs 120.00 from Chai Point was settled to your bank account.',
    );
    // Notices follow the saved choices: SMS only, to the store's contact phone.
    await call('PUT', '/api/merchant/settings', token, {
      store_name: 'Chai Point',
      contact_email: email,
      contact_phone: '+918040000001',
      notify_email: false,
      notify_sms: true,
    });
    // A new contact phone gets notices once the code sent to it is verified (store-attacks.test.ts).
    const phoneCode = await lastCode(test.database, '+918040000001');
    expect(
      (
        await call('POST', '/api/merchant/settings/verify-contact', token, {
          channel: 'phone',
          otp: phoneCode,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `/api/payouts/${pending[0].id}`, adminToken, { action: 'reject' })).json().message,
    ).toBe(messages.payoutRejected);
    expect((await lastMessage(test.database, '+918040000001')).body).toBe(
      'Your withdrawal of Rs 50.00 from Chai Point was rejected; the amount is back in your store balance.',
    );
    expect((await lastMessage(test.database, email)).body).toContain('was settled');
    expect(
      (await call('POST', `/api/payouts/${pending[0].id}`, adminToken, { action: 'settle' })).statusCode,
    ).toBe(409);

    const summary = (await call('GET', '/api/merchant/summary', token)).json();
    expect(summary).toMatchObject({
      balance: '80.00',
      available_balance: '80.00',
      total_withdrawals: '120.00',
      pending_withdrawal_count: 0,
      pending_withdrawals: '0.00',
    });
  });

  it('voids a withdrawal nobody settled in time, refuses to settle it late, and binds a key to its bank account', async () => {
    const { token, merchantId, email } = await approvedMerchant();
    await pay(merchantId, 10_000n);
    const addBank = async (account_number: string) =>
      (
        await call('POST', '/api/merchant/bank-accounts', token, {
          holder_name: 'Lakshmi',
          account_number,
          ifsc: 'HDFC0001234',
        })
      ).json().bank_accounts as Array<{ id: string }>;
    const [first] = await addBank('123456789012');
    const second = (await addBank('987654321098')).find((bank) => bank.id !== first!.id)!;
    const withdraw = (amount: number, bank_account_id: string, key: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/merchant/withdrawals',
        headers: { ...bearer(token), 'idempotency-key': key },
        payload: { amount, bank_account_id },
      });
    expect((await withdraw(60, first!.id, 'w-1')).statusCode).toBe(200);
    expect((await withdraw(60, first!.id, 'w-1')).statusCode).toBe(200);
    const otherBank = await withdraw(60, second.id, 'w-1');
    expect([otherBank.statusCode, otherBank.json().message]).toEqual([409, messages.idempotencyConflict]);
    expect((await withdraw(30, first!.id, 'w-2')).statusCode).toBe(200);
    expect((await call('GET', '/api/merchant/summary', token)).json()).toMatchObject({
      balance: '100.00',
      available_balance: '10.00',
    });
    const [late, due] = (await call('GET', '/api/merchant/withdrawals', token)).json().withdrawals as Array<{
      id: string;
      amount: string;
    }>;
    expect([late!.amount, due!.amount]).toEqual(['30.00', '60.00']);
    // Nothing is due before the timeout.
    expect(await test.app.pendingExpiry.runOnce()).not.toContain(due!.id);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 7 * 24 * 60 * 60_000 + 60_000);
      // Settled after its timeout: refused, and its amount goes back to the store at once. (A week idle
      // ends the admin's session, so the admin signs in again.)
      const lateAdmin = await signInAsAdmin(test.app, test.database);
      const settle = await call('POST', `/api/payouts/${late!.id}`, lateAdmin, { action: 'settle' });
      expect([settle.statusCode, settle.json().message]).toEqual([409, messages.payoutExpired]);
      // The expiry round voids the other one, once.
      const voided = await test.app.pendingExpiry.runOnce();
      expect(voided).toContain(due!.id);
      expect(voided).not.toContain(late!.id);
      expect(await test.app.pendingExpiry.runOnce()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    const withdrawals = (await call('GET', '/api/merchant/withdrawals', token)).json().withdrawals;
    expect(withdrawals.map((w: { status: string }) => w.status)).toEqual(['expired', 'expired']);
    expect((await call('GET', '/api/merchant/summary', token)).json()).toMatchObject({
      balance: '100.00',
      available_balance: '100.00',
      total_withdrawals: '0.00',
    });
    expect((await lastMessage(test.database, email)).body).toBe(
      'Your withdrawal of Rs 60.00 from Chai Point was not settled in time; the amount is back in your store balance.',
    );
    const reject = await call('POST', `/api/payouts/${due!.id}`, adminToken, { action: 'reject' });
    expect([reject.statusCode, reject.json().message]).toEqual([409, messages.payoutExpired]);
  });
});
