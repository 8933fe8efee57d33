import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/** Every endpoint a person can reach with a body: whatever they type, the answer is never a 5xx. */
const POST_ENDPOINTS = [
  '/api/auth/signup',
  '/api/auth/login',
  '/api/auth/password-reset',
  '/api/auth/change-password',
  '/api/auth/reset-password',
  '/api/email-otp/send',
  '/api/email-otp/verify',
  '/api/send-sms-otp',
  '/api/verify-sms-otp',
  '/api/transfer',
  '/api/assignBalance',
  '/api/applicants',
  '/api/inquiry',
  '/api/vendor-registration',
  '/api/kiosk-applications',
  '/api/qr/resolve',
  '/api/merchant/qr-codes',
];

const FIELDS = [
  'email',
  'phone',
  'otp',
  'password',
  'username',
  'userId',
  'amount',
  'receiverEmail',
  'receiverPhone',
  'purpose',
  'token',
  'name',
  'role',
  'interests',
  'premises',
  'newPassword',
  'originalPassword',
  'website',
  'uri',
  'label',
];

describe(`input handling on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let token: string;
  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    token = (await registerUser(test.app, test.database)).token;
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  it('never answers 5xx to random bodies, signed in or not', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
      fc.constantFrom(
        'a@b.in',
        '+919876543210',
        '123456',
        'registration',
        'transfer',
        '00000000-0000-4000-8000-000000000000',
        'School',
        'user',
      ),
    );
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...POST_ENDPOINTS),
          fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }),
          fc.boolean(),
          async (url, body, signedIn) => {
            const response = await test.app.inject({
              method: 'POST',
              url,
              payload: body,
              headers: signedIn ? { authorization: `Bearer ${token}` } : {},
            });
            expect(response.statusCode, `${url} ${JSON.stringify(body)}: ${response.body}`).toBeLessThan(500);
          },
        ),
        { seed, numRuns: 300 },
      );
    } catch (error) {
      console.error(`Input fuzz failed; replay with FUZZ_SEED=${seed}`);
      throw error;
    }
  });

  it('never answers 5xx to random history page queries', async () => {
    const part = fc.oneof(
      fc.string({ maxLength: 24 }),
      fc.bigInt({ min: -1n, max: 2n ** 70n }).map(String),
      fc.constantFrom('0', '0.0', '1.1', '999999999999999999.999999999999999999', '9223372036854775808'),
    );
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/api/dashboard/history', '/api/transaction/history'),
          fc.dictionary(fc.constantFrom('before', 'limit', 'userId'), part, { maxKeys: 3 }),
          async (path, query) => {
            const url = `${path}?${new URLSearchParams(query)}`;
            const response = await test.app.inject({
              method: 'GET',
              url,
              headers: { authorization: `Bearer ${token}` },
            });
            expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(500);
          },
        ),
        { seed, numRuns: 200 },
      );
    } catch (error) {
      console.error(`History query fuzz failed; replay with FUZZ_SEED=${seed}`);
      throw error;
    }
  });
});
