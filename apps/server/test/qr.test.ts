import { messages } from '@hasta/contracts/messages';
import { formatPaymentUri, parsePaymentUri } from '@hasta/contracts/qr';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  lastCode,
  passCooldown,
  registerUser,
  signInAsAdmin,
  uniquePhone,
} from './support/auth-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe(`payment QR codes on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const call = (
    method: 'GET' | 'POST',
    url: string,
    token?: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    test.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });
  const resolve = (token: string | undefined, uri: unknown) =>
    call('POST', '/api/qr/resolve', token, { uri });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  /** A payer with a phone and a balance. */
  async function payer(rupees: number) {
    const phone = uniquePhone();
    const registered = await registerUser(test.app, test.database, { phone });
    expect(
      (await call('POST', '/api/assignBalance', adminToken, { userId: registered.user.id, amount: rupees }))
        .statusCode,
    ).toBe(200);
    return { ...registered, phone };
  }

  async function createCode(token: string, body: object) {
    const response = await call('POST', '/api/merchant/qr-codes', token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().qr_code as { id: string; uri: string; amount: string | null; scans: number };
  }

  it('lets a merchant generate codes, with or without a fixed amount, and lists them with scan counts', async () => {
    const shop = await approvedMerchant(test.app, test.database, adminToken, 'Chai Point, HSR');
    const open = await call('POST', '/api/merchant/qr-codes', shop.token, {});
    expect(open.statusCode).toBe(200);
    expect(open.json().message).toBe(messages.qrCreated);
    expect(open.json().qr_code).toMatchObject({ label: null, amount: null, scans: 0 });
    const fixed = await createCode(shop.token, { amount: 250.5, label: '  Counter 2 ' });
    expect(fixed).toMatchObject({ amount: '250.50', label: 'Counter 2', scans: 0 });

    const request = parsePaymentUri(fixed.uri);
    expect(request).toMatchObject({
      payee: { kind: 'store', id: shop.merchantId },
      payee_name: 'Chai Point, HSR',
      amount_paise: 25_050n,
    });
    expect(fixed.uri).toMatch(
      /^hasta:\/\/pay\?v=1&pa=store-[0-9a-f-]{36}&pn=Chai%20Point%2C%20HSR&am=250\.50&qr=/,
    );
    expect(parsePaymentUri(open.json().qr_code.uri)?.amount_paise).toBeUndefined();

    const list = (await call('GET', '/api/merchant/qr-codes', shop.token)).json().qr_codes;
    expect(list.map((code: { id: string }) => code.id)).toEqual([fixed.id, open.json().qr_code.id]);
    expect((await call('GET', '/api/merchant/summary', shop.token)).json()).toMatchObject({
      total_qr_codes_generated: 2,
      total_qr_scans: 0,
    });
  });

  it.each([
    [{ amount: 1.005 }, messages.amountTooPrecise],
    [{ amount: -5 }, messages.amountPositive],
    [{ amount: 0 }, messages.amountPositive],
    [{ amount: '10' }, messages.invalidAmount],
    [{ amount: 200_000.01 }, messages.balanceLimitExceeded],
    [{ label: 'x'.repeat(61) }, messages.qrLabelTooLong],
    [{ label: 7 }, undefined],
  ])('refuses a code for %j with 400', async (body, message) => {
    const shop = await approvedMerchant(test.app, test.database, adminToken);
    const response = await call('POST', '/api/merchant/qr-codes', shop.token, body);
    expect(response.statusCode).toBe(400);
    if (message !== undefined) expect(response.json().message).toBe(message);
    expect((await call('GET', '/api/merchant/qr-codes', shop.token)).json().qr_codes).toEqual([]);
  });

  it('keeps store codes to their store: anonymous 401, a user or an admin 403, another merchant sees only theirs', async () => {
    const shop = await approvedMerchant(test.app, test.database, adminToken);
    const other = await approvedMerchant(test.app, test.database, adminToken, 'Other Store');
    await createCode(shop.token, { amount: 10 });
    const user = await registerUser(test.app, test.database);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { amount: 5 }],
    ] as const) {
      expect((await call(method, '/api/merchant/qr-codes', undefined, body)).statusCode).toBe(401);
      for (const token of [user.token, adminToken]) {
        const refused = await call(method, '/api/merchant/qr-codes', token, body);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().message).toBe(messages.merchantOnly);
      }
    }
    expect((await call('GET', '/api/merchant/qr-codes', other.token)).json().qr_codes).toEqual([]);
    expect((await call('GET', '/api/merchant/qr-codes', shop.token)).json().qr_codes).toHaveLength(1);
  });

  it('resolves a scanned store code for a signed-in payer and counts the scan', async () => {
    const shop = await approvedMerchant(test.app, test.database, adminToken, 'Dosa Corner');
    const code = await createCode(shop.token, { amount: 40 });
    const customer = await registerUser(test.app, test.database);

    expect((await resolve(undefined, code.uri)).statusCode).toBe(401);
    const answer = await resolve(customer.token, code.uri);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      payee_kind: 'store',
      payee_name: 'Dosa Corner',
      receiverEmail: shop.email,
      receiverPhone: null,
      amount: '40.00',
    });
    expect((await resolve(adminToken, code.uri)).statusCode).toBe(200);

    const list = (await call('GET', '/api/merchant/qr-codes', shop.token)).json().qr_codes;
    expect(list[0].scans).toBe(2);
    expect((await call('GET', '/api/merchant/summary', shop.token)).json().total_qr_scans).toBe(2);
  });

  it('refuses codes that are not Hasta codes, edited, unknown, or the payer’s own, without counting a scan', async () => {
    const shop = await approvedMerchant(test.app, test.database, adminToken);
    const code = await createCode(shop.token, { amount: 40 });
    const request = parsePaymentUri(code.uri)!;
    const customer = await registerUser(test.app, test.database);
    const cases: [unknown, number, string | undefined][] = [
      ['upi://pay?pa=shop@upi&pn=Shop&am=40.00', 400, messages.invalidQr],
      ['hasta://pay?v=2&pa=store-x', 400, messages.invalidQr],
      [code.uri.replace('am=40.00', 'am=4.00'), 400, messages.invalidQr],
      [code.uri.replace('am=40.00', 'am=40.001'), 400, messages.invalidQr],
      [code.uri.replace('am=40.00', 'am=-40.00'), 400, messages.invalidQr],
      [code.uri.replace('&am=40.00', ''), 400, messages.invalidQr],
      ['x'.repeat(2_000), 400, messages.invalidQr],
      ['', 400, messages.invalidQr],
      [42, 400, messages.invalidQr],
      [null, 400, messages.invalidQr],
      [formatPaymentUri({ ...request, qr: 'A'.repeat(22) }), 404, messages.qrNotFound],
      [formatPaymentUri({ ...request, payee: { kind: 'store', id: UNKNOWN_ID } }), 404, messages.qrNotFound],
      [
        formatPaymentUri({ payee: { kind: 'user', id: UNKNOWN_ID }, payee_name: 'ghost' }),
        404,
        messages.qrNotFound,
      ],
    ];
    for (const [uri, status, message] of cases) {
      const answer = await resolve(customer.token, uri);
      expect(answer.statusCode, `${String(uri)}: ${answer.body}`).toBe(status);
      if (message !== undefined) expect(answer.json().message).toBe(message);
    }
    const own = await resolve(shop.token, code.uri);
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe(messages.ownQr);
    expect((await call('GET', '/api/merchant/qr-codes', shop.token)).json().qr_codes[0].scans).toBe(0);
  });

  it("gives a person their own receive code, which another person's scan resolves to them", async () => {
    const person = await registerUser(test.app, test.database, { username: 'Asha Rao' });
    const someoneElse = await registerUser(test.app, test.database);
    expect((await call('GET', '/api/qr/receive')).statusCode).toBe(401);

    const plain = await call('GET', '/api/qr/receive', person.token);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({
      payee_name: 'Asha Rao',
      uri: `hasta://pay?v=1&pa=user-${person.user.id}&pn=Asha%20Rao`,
    });
    const withAmount = (await call('GET', '/api/qr/receive?amount=25.5', person.token)).json();
    expect(withAmount.uri).toBe(`hasta://pay?v=1&pa=user-${person.user.id}&pn=Asha%20Rao&am=25.50`);
    for (const amount of ['0', '0.00', '-1', '1.234', 'abc', '1e3', '']) {
      const refused = await call('GET', `/api/qr/receive?amount=${encodeURIComponent(amount)}`, person.token);
      expect(refused.statusCode, amount).toBe(400);
    }

    const answer = await resolve(someoneElse.token, withAmount.uri);
    expect(answer.json()).toEqual({
      payee_kind: 'user',
      payee_name: 'Asha Rao',
      receiverEmail: person.user.email,
      receiverPhone: null,
      amount: '25.50',
    });
    expect((await resolve(person.token, withAmount.uri)).json().message).toBe(messages.ownQr);
  });

  it('a payment to a store found by its code lands in the store, after the OTP step', async () => {
    const shop = await approvedMerchant(test.app, test.database, adminToken, 'Tea Stall');
    const code = await createCode(shop.token, { amount: 75.25 });
    const customer = await payer(100);
    const target = (await resolve(customer.token, code.uri)).json();

    const transfer = () =>
      call('POST', '/api/transfer', customer.token, {
        receiverEmail: target.receiverEmail ?? '',
        receiverPhone: target.receiverPhone ?? '',
        amount: Number(target.amount),
        transferMethod: 'qr_scan',
      });
    const unverified = await transfer();
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().message).toBe(messages.transferVerificationRequired);

    await passCooldown(test.database, customer.phone);
    expect(
      (
        await call('POST', '/api/send-sms-otp', customer.token, {
          phone: customer.phone,
          purpose: 'transfer',
        })
      ).statusCode,
    ).toBe(200);
    const otp = await lastCode(test.database, customer.phone);
    expect(
      (
        await call('POST', '/api/verify-sms-otp', customer.token, {
          phone: customer.phone,
          otp,
          purpose: 'transfer',
        })
      ).statusCode,
    ).toBe(200);
    const paid = await transfer();
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().transaction).toMatchObject({ amount: '75.25', direction: 'sent' });

    expect((await call('GET', '/api/merchant/summary', shop.token)).json()).toMatchObject({
      balance: '75.25',
      total_sales: '75.25',
      total_transactions: 1,
      total_customers: 1,
      total_qr_scans: 1,
    });
    const payments = (await call('GET', '/api/merchant/payments', shop.token)).json().payments;
    expect(payments).toEqual([
      expect.objectContaining({ amount: '75.25', status: 'completed', customer: customer.phone }),
    ]);
    expect((await call('GET', '/api/dashboard', customer.token)).json().user.balance).toBe('24.75');
    // The owner's personal wallet is untouched: the money is the store's.
    expect((await call('GET', '/api/dashboard', shop.token)).json().user.balance).toBe('0.00');
  });

  it('never answers 5xx to random code texts or code requests', async () => {
    const shop = await approvedMerchant(test.app, test.database, adminToken);
    const customer = await registerUser(test.app, test.database);
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ maxLength: 80 }).map((tail) => `hasta://pay?v=1&${tail}`),
      fc
        .tuple(fc.uuid(), fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }))
        .map(([id, name, am]) => `hasta://pay?v=1&pa=store-${id}&pn=${name}&am=${am}`),
    );
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    try {
      await fc.assert(
        fc.asyncProperty(text, async (uri) => {
          const answer = await resolve(customer.token, uri);
          expect(answer.statusCode, `${uri}: ${answer.body}`).toBeLessThan(500);
        }),
        { seed, numRuns: 150 },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom('amount', 'label'),
            fc.oneof(
              fc.double(),
              fc.integer(),
              fc.string({ maxLength: 70 }),
              fc.constant(null),
              fc.boolean(),
            ),
            { maxKeys: 2 },
          ),
          async (body) => {
            const answer = await call('POST', '/api/merchant/qr-codes', shop.token, body);
            expect(answer.statusCode, `${JSON.stringify(body)}: ${answer.body}`).toBeLessThan(500);
          },
        ),
        { seed, numRuns: 150 },
      );
    } catch (error) {
      console.error(`QR input fuzz failed; replay with FUZZ_SEED=${seed}`);
      throw error;
    }
  });
});
