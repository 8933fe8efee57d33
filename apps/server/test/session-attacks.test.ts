import { generateNoteKeys } from '@hasta/tlog/note';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin, uniqueEmail } from './support/auth-helpers';
import { approvedMerchant } from './support/merchant-helpers';
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

  it("keeps a store owner's session used within 12 hours, refuses one idle for 13", async () => {
    const store = await approvedMerchant(
      test.app,
      test.database,
      await signInAsAdmin(test.app, test.database),
    );
    advance(11 * HOUR);
    expect((await whoAmI(store.token)).statusCode).toBe(200);
    advance(13 * HOUR);
    expect((await whoAmI(store.token)).statusCode).toBe(401);
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

describe(`the sessions list and sign out everywhere else on ${testDatabaseKind}`, () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
  });
  afterAll(async () => {
    await test.close();
  });

  const login = async (email: string, password: string, userAgent: string) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'user-agent': userAgent },
    });
    expect(response.statusCode).toBe(200);
    return response.json().token as string;
  };
  const get = (url: string, token: string, userAgent = 'Laptop') =>
    test.app.inject({ method: 'GET', url, headers: { ...bearer(token), 'user-agent': userAgent } });
  const post = (url: string, token: string) =>
    test.app.inject({ method: 'POST', url, headers: bearer(token) });

  it("lists only the caller's own sessions, marks the current one, and signs out everywhere else at once", async () => {
    const email = uniqueEmail();
    const { password } = await registerUser(test.app, test.database, { email });
    const laptop = await login(email, password, 'Laptop');
    const phone = await login(email, password, 'Phone');
    const stranger = await registerUser(test.app, test.database);

    expect((await get('/api/auth/session', phone, 'Phone')).statusCode).toBe(200);
    const listed = await get('/api/sessions', laptop);
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().sessions as Array<{
      id: string;
      user_agent: string | null;
      current: boolean;
    }>;
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => s.current)?.user_agent).toBe('Laptop');
    expect(sessions.map((s) => s.user_agent)).toContain('Phone');
    const strangers = (await get('/api/sessions', stranger.token)).json().sessions as Array<{ id: string }>;
    expect(strangers).toHaveLength(1);
    expect(sessions.map((s) => s.id)).not.toContain(strangers[0]!.id);

    // Nobody ends another user's session, nor learns whether its id exists.
    const foreign = await post(`/api/sessions/${strangers[0]!.id}/revoke`, laptop);
    expect(foreign.statusCode).toBe(404);
    expect((await get('/api/auth/session', stranger.token)).statusCode).toBe(200);

    const everywhere = await post('/api/sessions/revoke-others', laptop);
    expect(everywhere.statusCode).toBe(200);
    expect(everywhere.json().revoked).toBeGreaterThanOrEqual(2);
    expect((await get('/api/auth/session', phone, 'Phone')).statusCode).toBe(401);
    expect((await get('/api/auth/session', laptop)).statusCode).toBe(200);
    const left = (await get('/api/sessions', laptop)).json().sessions as Array<{ current: boolean }>;
    expect(left).toEqual([expect.objectContaining({ current: true })]);
  });

  it('ends one of the caller’s sessions by its id', async () => {
    const email = uniqueEmail();
    const { password } = await registerUser(test.app, test.database, { email });
    const laptop = await login(email, password, 'Laptop');
    const phone = await login(email, password, 'Phone');
    const phoneId = (
      (await get('/api/sessions', phone, 'Phone')).json().sessions as Array<{ id: string; current: boolean }>
    ).find((s) => s.current)!.id;
    const ended = await post(`/api/sessions/${phoneId}/revoke`, laptop);
    expect(ended.statusCode).toBe(200);
    expect((await get('/api/auth/session', phone, 'Phone')).statusCode).toBe(401);
    expect((await post(`/api/sessions/${phoneId}/revoke`, laptop)).statusCode).toBe(404);
    expect((await get('/api/sessions', 'not-a-token')).statusCode).toBe(401);
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
        WEBAUTHN_RP_ID: 'hasta.example',
        WEBAUTHN_ORIGINS: 'https://hasta.example',
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
