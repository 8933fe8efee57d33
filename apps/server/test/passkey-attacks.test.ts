import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/password';
import { bearer, registerUser, uniqueEmail } from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 23 item 1, as an attacker who learned an admin's password would try it: the password alone (or a
 * login code alone) must not let anyone act as an admin or a store owner. Until the passkey step, the
 * session may do nothing but that step.
 */
describe(`a sign-in with only the password on ${testDatabaseKind}`, () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
  });
  afterAll(async () => {
    await test.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    test.app.inject({ method, url, ...(payload ? { payload } : {}), headers: bearer(token) });

  async function accountWithPassword(role: 'admin' | 'merchant') {
    const email = uniqueEmail(role);
    const password = `${role} password 1`;
    await test.database.db
      .insertInto('users')
      .values({ email, username: role, role, password_hash: await hashPassword(password) })
      .execute();
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    expect(login.statusCode).toBe(200);
    return login.json().token as string;
  }

  it('cannot assign balance nor list users as an admin', async () => {
    const stolen = await accountWithPassword('admin');
    const victim = await registerUser(test.app, test.database);

    const minted = await call('POST', '/api/assignBalance', stolen, { userId: victim.user.id, amount: 5000 });
    expect(minted.statusCode).toBe(403);
    expect(minted.json().message).toBe(messages.secondFactorRequired);
    const users = await call('GET', '/api/auth/users', stolen);
    expect(users.statusCode).toBe(403);
    expect(users.json().message).toBe(messages.secondFactorRequired);
    const dashboard = await call('GET', '/api/dashboard', victim.token);
    expect(dashboard.json().user.balance).toBe('0.00');
  });

  it("cannot see a store's dashboard, nor change the password, as a store owner", async () => {
    const stolen = await accountWithPassword('merchant');
    for (const [method, url] of [
      ['GET', '/api/merchant/summary'],
      ['GET', '/api/merchant/bank-accounts'],
      ['GET', '/api/sessions'],
    ] as const) {
      const answer = await call(method, url, stolen);
      expect([url, answer.statusCode, answer.json().message]).toEqual([
        url,
        403,
        messages.secondFactorRequired,
      ]);
    }
    const changed = await call('POST', '/api/auth/change-password', stolen, {
      originalPassword: 'merchant password 1',
      newPassword: 'a new one of my own',
    });
    expect(changed.statusCode).toBe(403);
  });
});
