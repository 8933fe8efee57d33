import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Every admin route of the API, with a body that would pass validation. */
const ADMIN_ROUTES = [
  ['GET', '/api/auth/users', undefined],
  ['POST', '/api/auth/reset-password', { userId: SOME_ID }],
  ['POST', '/api/assignBalance', { userId: SOME_ID, amount: 1 }],
  ['GET', '/api/transaction', undefined],
  ['DELETE', `/api/transaction/${SOME_ID}`, undefined],
  ['GET', '/api/applicants', undefined],
  ['DELETE', `/api/applicants/${SOME_ID}`, undefined],
  ['GET', '/api/inquiry', undefined],
  ['GET', '/api/vendor-registration', undefined],
  ['GET', '/api/kiosk-applications', undefined],
  ['POST', '/api/merchants', { vendorRegistrationId: SOME_ID }],
  ['GET', '/api/merchants', undefined],
  ['GET', '/api/payouts', undefined],
  ['POST', `/api/payouts/${SOME_ID}`, { action: 'settle' }],
  ['GET', '/api/disputes', undefined],
  ['POST', `/api/disputes/${SOME_ID}`, { action: 'refund' }],
  ['GET', '/api/rewards/summary', undefined],
] as const;

describe(`admin routes on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let userToken: string;
  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    userToken = (await registerUser(test.app, test.database)).token;
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  it.each(ADMIN_ROUTES)('%s %s answers 401 to nobody and 403 to a user', async (method, url, payload) => {
    const request = (headers: Record<string, string>) =>
      test.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect((await request({})).statusCode).toBe(401);
    const asUser = await request(bearer(userToken));
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().message).toBe(messages.forbidden);
  });

  it('lists every route the API documents as admin-only', async () => {
    const spec = (await test.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const documented = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.includes('admin'))
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, SOME_ID)}`),
    );
    expect(documented.sort()).toEqual(ADMIN_ROUTES.map(([method, url]) => `${method} ${url}`).sort());
  });
});
