import { generateNoteKeys } from '@hasta/tlog/note';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 23 item 2: a stolen or forgotten session must not live on. A session ends after 15 idle minutes for
 * admins, 12 idle hours for store owners and 7 idle days for people, and 30 days after it began whatever its
 * use; in production the cookie is `__Host-` prefixed (Secure, Path=/, no Domain) and an unprefixed one,
 * which a sibling subdomain could plant, is not read.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe(`session lifetimes on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let nowMs = Date.now();
  const clock = () => new Date(nowMs);
  const advance = (ms: number) => {
    nowMs += ms;
  };
  const whoAmI = (token: string) =>
    test.app.inject({ method: 'GET', url: '/api/auth/session', headers: bearer(token) });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' }, clock });
  });
  afterAll(async () => {
    await test.close();
  });

  it("refuses an admin's session idle for 16 minutes", async () => {
    const token = await signInAsAdmin(test.app, test.database);
    advance(14 * MINUTE);
    expect((await whoAmI(token)).statusCode).toBe(200);
    advance(16 * MINUTE);
    const idle = await whoAmI(token);
    expect(idle.statusCode).toBe(401);
    expect(idle.json().message).toBe('Please log in to continue.');
  });

  it("keeps a person's session used within 7 days, refuses one idle for 8", async () => {
    const { token } = await registerUser(test.app, test.database);
    advance(6 * DAY);
    expect((await whoAmI(token)).statusCode).toBe(200);
    advance(8 * DAY);
    expect((await whoAmI(token)).statusCode).toBe(401);
  });

  it("refuses a person's session older than 30 days, however often used", async () => {
    const { token } = await registerUser(test.app, test.database);
    for (let day = 6; day < 30; day += 6) {
      advance(6 * DAY);
      expect((await whoAmI(token)).statusCode).toBe(200);
    }
    advance(7 * DAY);
    expect((await whoAmI(token)).statusCode).toBe(401);
  });
});

describe(`the production session cookie on ${testDatabaseKind}`, () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        COOKIE_SECRET: 'a'.repeat(40),
        PUBLIC_URL: 'https://hasta.example',
        SMTP_HOST: 'smtp.hasta.example',
        SMS_GATEWAY_URL: 'https://sms.hasta.example/send',
        LOG_SIGNING_KEY: generateNoteKeys('hasta.example/log').signerKey,
        LOG_SECRET: 'b'.repeat(40),
        RATE_LIMIT_PER_MINUTE: '30000',
      },
    });
  });
  afterAll(async () => {
    await test.close();
  });

  it('is set as __Host-hasta_session, Secure, Path=/ and no Domain, and an unprefixed one is not read', async () => {
    const token = await signInAsAdmin(test.app, test.database);
    const email = (
      await test.database.db
        .selectFrom('users')
        .select('email')
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).email!;
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'admin password 1' },
    });
    expect(login.statusCode).toBe(200);
    const cookie = login.cookies.find((c) => c.name.endsWith('hasta_session'));
    expect(cookie?.name).toBe('__Host-hasta_session');
    expect(cookie?.secure).toBe(true);
    expect(cookie?.path).toBe('/');
    expect(cookie?.domain).toBeUndefined();

    const planted = await test.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { hasta_session: token },
    });
    expect(planted.statusCode).toBe(401);
    const prefixed = await test.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { '__Host-hasta_session': token },
    });
    expect(prefixed.statusCode).toBe(200);
  });
});
