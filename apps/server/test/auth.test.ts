import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  lastCode,
  lastMessage,
  passCooldown,
  registerUser,
  sessionCookie,
  uniqueEmail,
  uniquePhone,
  signInAsAdmin,
} from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

describe(`accounts and sessions on ${testDatabaseKind}`, () => {
  let test: TestApp;
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    test.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string> = {}) =>
    test.app.inject({ method: 'GET', url, headers });
  /** How far the server's clock runs ahead of the real one. */
  let aheadMs = 0;
  /** Waits out a client's delay after its failed attempts (1 s, 2 s, 4 s) by moving the server's clock. */
  const waitOutDelay = () => {
    aheadMs += 10_000;
  };

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000' },
      clock: () => new Date(Date.now() + aheadMs),
    });
  });
  afterAll(async () => {
    await test.close();
  });

  describe('registration', () => {
    it('sends a code and a link, verifies it, and creates a signed-in account (seed order, seed fields)', async () => {
      const email = uniqueEmail('reg');
      const sent = await post('/api/email-otp/send', { email });
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ success: true, message: messages.otpSentEmail, resend_after_s: 60 });
      const mail = await lastMessage(test.database, email);
      expect(mail.body).toMatch(/verification code is \d{6}/);
      expect(mail.body).toMatch(
        new RegExp(`/register\\?token=[\\w-]+&email=${encodeURIComponent(email)}&type=registration`),
      );

      const verified = await post('/api/email-otp/verify', {
        email,
        otp: await lastCode(test.database, email),
      });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toMatchObject({ success: true, purpose: 'registration' });
      const verificationCookie = verified.cookies.find((c) => c.name === 'hasta_verification');
      expect(verificationCookie?.httpOnly).toBe(true);

      // The browser sends the cookie back; the body carries only the seed's fields.
      const signup = await post(
        '/api/auth/signup',
        { username: 'Asha', password: 'a less common secret', email },
        { cookie: `hasta_verification=${verificationCookie!.value}` },
      );
      expect(signup.statusCode).toBe(200);
      const body = signup.json();
      expect(body.message).toBe(messages.accountCreated);
      expect(body.user).toMatchObject({ email, username: 'Asha', is_admin: false, role: 'user' });
      const cookie = signup.cookies.find((c) => c.name === 'hasta_session')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(
        (await get('/api/auth/session', { cookie: `hasta_session=${cookie.value}` })).json().user.email,
      ).toBe(email);
    });

    it('verifies the emailed link token instead of the typed code', async () => {
      const email = uniqueEmail('link');
      await post('/api/email-otp/send', { email, purpose: 'registration' });
      const token = new URL(
        /(http\S+)/.exec((await lastMessage(test.database, email)).body)![1]!,
      ).searchParams.get('token');
      const verified = await post('/api/email-otp/verify', { email, token, purpose: 'registration' });
      expect(verified.statusCode).toBe(200);
      expect(verified.json().verification_token).toEqual(expect.any(String));
      expect(
        (await post('/api/email-otp/verify', { email, token, purpose: 'registration' })).statusCode,
      ).toBe(400);
    });

    it('registers by phone over SMS, keeping only the verified contact', async () => {
      const phone = uniquePhone();
      const { user } = await registerUser(test.app, test.database, { phone });
      expect(user.phone).toBe(phone);
      expect(user.email).toBeNull();
    });

    it('refuses sign-up without a verified contact, or with someone else’s verification', async () => {
      const refused = await post('/api/auth/signup', {
        username: 'Eve',
        password: 'a less common secret',
        email: uniqueEmail(),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(messages.verificationRequired);

      const email = uniqueEmail();
      await post('/api/email-otp/send', { email, purpose: 'registration' });
      const token = (
        await post('/api/email-otp/verify', { email, otp: await lastCode(test.database, email) })
      ).json().verification_token;
      const other = await post('/api/auth/signup', {
        username: 'Eve',
        password: 'a less common secret',
        email: uniqueEmail(),
        verification_token: token,
      });
      expect(other.statusCode).toBe(400);
    });

    it('refuses the 10,000 most common passwords and short ones, with the catalogue texts', async () => {
      const email = uniqueEmail();
      await post('/api/email-otp/send', { email, purpose: 'registration' });
      const token = (
        await post('/api/email-otp/verify', { email, otp: await lastCode(test.database, email) })
      ).json().verification_token;
      const common = await post('/api/auth/signup', {
        username: 'Ravi',
        password: 'iloveyou',
        email,
        verification_token: token,
      });
      expect(common.statusCode).toBe(400);
      expect(common.json().message).toBe(messages.commonPassword);
      const short = await post('/api/auth/signup', {
        username: 'Ravi',
        password: 'abc',
        email,
        verification_token: token,
      });
      expect(short.json().message).toBe(messages.passwordMinLength);
      const shortName = await post('/api/auth/signup', {
        username: 'R',
        password: 'a less common secret',
        email,
        verification_token: token,
      });
      expect(shortName.json().message).toBe(messages.usernameMinLength);
      // The verification was not used up by the refusals.
      expect(
        (
          await post('/api/auth/signup', {
            username: 'Ravi',
            password: 'a less common secret',
            email,
            verification_token: token,
          })
        ).statusCode,
      ).toBe(200);
      // Used up by the sign-up: the same token makes no second account.
      const second = await post('/api/auth/signup', {
        username: 'Ravi Two',
        password: 'a less common secret',
        email,
        verification_token: token,
      });
      expect(second.statusCode).toBe(400);
      expect(second.json().message).toBe(messages.verificationRequired);
    });

    it('answers the same for a registered address, and tells the owner instead of sending a code', async () => {
      const { user } = await registerUser(test.app, test.database);
      await passCooldown(test.database, user.email!);
      const known = await post('/api/email-otp/send', { email: user.email, purpose: 'registration' });
      const unknownEmail = uniqueEmail();
      const unknown = await post('/api/email-otp/send', { email: unknownEmail, purpose: 'login' });
      expect(known.statusCode).toBe(unknown.statusCode);
      expect(known.json()).toEqual(unknown.json());
      expect((await lastMessage(test.database, user.email!)).body).toMatch(/already have one/);
      expect((await lastMessage(test.database, unknownEmail)).body).toMatch(/no Hasta account uses it/);
      expect((await lastMessage(test.database, unknownEmail)).body).not.toMatch(/\d{6}/);
    });
  });

  describe('one-time codes', () => {
    it('log a user in once: a code cannot be used twice', async () => {
      const { user } = await registerUser(test.app, test.database);
      await passCooldown(test.database, user.email!);
      await post('/api/email-otp/send', { email: user.email, purpose: 'login' });
      const otp = await lastCode(test.database, user.email!);
      const login = await post('/api/auth/login', { email: user.email, otp });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.id).toBe(user.id);
      const again = await post('/api/auth/login', { email: user.email, otp });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(messages.invalidVerificationCode);
    });

    it('expire after 5 minutes', async () => {
      const { user } = await registerUser(test.app, test.database);
      await passCooldown(test.database, user.email!);
      await post('/api/email-otp/send', { email: user.email, purpose: 'login' });
      const otp = await lastCode(test.database, user.email!);
      await test.database.db
        .updateTable('otp_codes')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('identifier', '=', user.email!)
        .execute();
      expect((await post('/api/auth/login', { email: user.email, otp })).statusCode).toBe(400);
    });

    it('are bound to their purpose', async () => {
      const { user } = await registerUser(test.app, test.database);
      await passCooldown(test.database, user.email!);
      await post('/api/email-otp/send', { email: user.email, purpose: 'password_reset' });
      const otp = await lastCode(test.database, user.email!);
      expect((await post('/api/auth/login', { email: user.email, otp })).statusCode).toBe(400);
      expect(
        (await post('/api/email-otp/verify', { email: user.email, otp, purpose: 'login' })).statusCode,
      ).toBe(400);
    });

    it('are kept only as keyed hashes', async () => {
      const email = uniqueEmail();
      await post('/api/email-otp/send', { email, purpose: 'registration' });
      const otp = await lastCode(test.database, email);
      const rows = await test.database.db
        .selectFrom('otp_codes')
        .selectAll()
        .where('identifier', '=', email)
        .execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(otp);
      expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('lock an address after 5 failures in 15 minutes, and a success clears the count', async () => {
      const { user } = await registerUser(test.app, test.database);
      await passCooldown(test.database, user.email!);
      await post('/api/email-otp/send', { email: user.email, purpose: 'login' });
      const otp = await lastCode(test.database, user.email!);
      const wrong = otp === '000000' ? '111111' : '000000';
      // Each failure of this client makes its next attempt wait (lockout-attacks.test.ts): waited out here.
      for (let i = 0; i < 4; i += 1) {
        expect((await post('/api/auth/login', { email: user.email, otp: wrong })).statusCode).toBe(400);
        waitOutDelay();
      }
      expect((await post('/api/auth/login', { email: user.email, otp })).statusCode).toBe(200);

      // Cleared: five more failures are allowed before the lock.
      for (let i = 0; i < 5; i += 1) {
        expect(
          (await post('/api/auth/login', { email: user.email, password: 'wrong one!' })).statusCode,
        ).toBe(401);
        waitOutDelay();
      }
      const locked = await post('/api/auth/login', { email: user.email, password: 'correct horse battery' });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe(messages.tooManyAttempts);
    });

    it('wait 60 seconds only between codes of the same purpose', async () => {
      const { user } = await registerUser(test.app, test.database);
      const login = await post('/api/email-otp/send', { email: user.email, purpose: 'login' });
      expect(login.statusCode).toBe(200);
      expect((await post('/api/email-otp/send', { email: user.email, purpose: 'login' })).statusCode).toBe(
        429,
      );
      // The third code of ten minutes is allowed (another purpose); a fourth is not, whatever its purpose.
      expect(
        (await post('/api/email-otp/send', { email: user.email, purpose: 'password_reset' })).statusCode,
      ).toBe(200);
      expect(
        (await post('/api/email-otp/send', { email: user.email, purpose: 'registration' })).statusCode,
      ).toBe(429);
    });

    it('are sent at most 3 times in 10 minutes, 60 seconds apart', async () => {
      const email = uniqueEmail();
      expect((await post('/api/email-otp/send', { email })).statusCode).toBe(200);
      const tooSoon = await post('/api/email-otp/send', { email });
      expect(tooSoon.statusCode).toBe(429);
      expect(tooSoon.json().message).toBe(messages.tooManyOtpRequests);
      // Age the first send past the cooldown: a second and third are allowed, a fourth is not.
      const age = (ms: number) =>
        test.database.db
          .updateTable('otp_events')
          .set({ created_at: new Date(Date.now() - ms) })
          .where('identifier', '=', email)
          .execute();
      await age(61_000);
      expect((await post('/api/email-otp/send', { email })).statusCode).toBe(200);
      await age(62_000);
      expect((await post('/api/email-otp/send', { email })).statusCode).toBe(200);
      await age(63_000);
      expect((await post('/api/email-otp/send', { email })).statusCode).toBe(429);
      await age(11 * 60_000);
      expect((await post('/api/email-otp/send', { email })).statusCode).toBe(200);
    });
  });

  describe('passwords', () => {
    it('log in with a password by email or phone, with one answer for every wrong pair', async () => {
      const phone = uniquePhone();
      const { user, password } = await registerUser(test.app, test.database, { phone });
      expect((await post('/api/auth/login', { phone, password })).statusCode).toBe(200);
      expect(
        (await post('/api/auth/login', { phone: `${phone.slice(0, 3)} ${phone.slice(3)}`, password }))
          .statusCode,
      ).toBe(200);
      const wrong = await post('/api/auth/login', { phone, password: 'not it at all' });
      const nobody = await post('/api/auth/login', { email: uniqueEmail(), password });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(nobody.json());
      expect(wrong.json().message).toBe(messages.wrongCredentials);
      expect(user.phone).toBe(phone);
    });

    it('are stored as argon2id with m=19456, t=2, p=1', async () => {
      const { user } = await registerUser(test.app, test.database);
      const row = await test.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('change with the current one; every other session ends', async () => {
      const { token, user, password } = await registerUser(test.app, test.database);
      const other = (await post('/api/auth/login', { email: user.email, password })).json().token as string;
      const wrong = await post(
        '/api/auth/change-password',
        { userId: user.id, originalPassword: 'nope', newPassword: 'brand new secret' },
        bearer(token),
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe(messages.wrongOriginalPassword);
      const short = await post(
        '/api/auth/change-password',
        { userId: user.id, originalPassword: password, newPassword: 'abc' },
        bearer(token),
      );
      expect(short.json().message).toBe(messages.newPasswordMinLength);

      const changed = await post(
        '/api/auth/change-password',
        { userId: user.id, originalPassword: password, newPassword: 'brand new secret' },
        bearer(token),
      );
      expect(changed.statusCode).toBe(200);
      expect(changed.json().message).toBe(messages.passwordChanged);
      expect((await get('/api/auth/session', bearer(other))).statusCode).toBe(401);
      expect((await get('/api/auth/session', bearer(token))).statusCode).toBe(401);
      expect((await get('/api/auth/session', bearer(changed.json().token))).statusCode).toBe(200);
      expect(
        (await post('/api/auth/login', { email: user.email, password: 'brand new secret' })).statusCode,
      ).toBe(200);
    });

    it('cannot be changed for someone else', async () => {
      const alice = await registerUser(test.app, test.database);
      const bob = await registerUser(test.app, test.database);
      const response = await post(
        '/api/auth/change-password',
        { userId: bob.user.id, originalPassword: alice.password, newPassword: 'brand new secret' },
        bearer(alice.token),
      );
      expect(response.statusCode).toBe(403);
    });

    it('reset with a password-reset code (forgot password), ending old sessions', async () => {
      const phone = uniquePhone();
      const { token } = await registerUser(test.app, test.database, { phone });
      await passCooldown(test.database, phone);
      expect((await post('/api/send-sms-otp', { phone, purpose: 'password_reset' })).statusCode).toBe(200);
      const otp = await lastCode(test.database, phone);
      const reset = await post('/api/auth/password-reset', { phone, otp, newPassword: 'a fresh start here' });
      expect(reset.statusCode).toBe(200);
      expect((await get('/api/auth/session', bearer(token))).statusCode).toBe(401);
      expect((await post('/api/auth/login', { phone, password: 'a fresh start here' })).statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it('rotate on login: the browser’s previous session ends', async () => {
      const { user, password } = await registerUser(test.app, test.database);
      const first = sessionCookie(await post('/api/auth/login', { email: user.email, password }));
      const second = await post(
        '/api/auth/login',
        { email: user.email, password },
        { cookie: `hasta_session=${first}` },
      );
      const next = sessionCookie(second);
      expect(next).not.toBe(first);
      expect((await get('/api/auth/session', { cookie: `hasta_session=${first}` })).statusCode).toBe(401);
      expect((await get('/api/auth/session', { cookie: `hasta_session=${next}` })).statusCode).toBe(200);
    });

    it('accept the answer’s token as a bearer token for devices, and end on logout', async () => {
      const { token } = await registerUser(test.app, test.database);
      expect((await get('/api/auth/session', bearer(token))).statusCode).toBe(200);
      expect((await post('/api/auth/logout', {}, bearer(token))).statusCode).toBe(200);
      expect((await get('/api/auth/session', bearer(token))).statusCode).toBe(401);
    });

    it('are stored only as hashes', async () => {
      const { token } = await registerUser(test.app, test.database);
      const rows = await test.database.db.selectFrom('sessions').select('token_hash').execute();
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('refuse a state change from another origin', async () => {
      const { token } = await registerUser(test.app, test.database);
      const response = await post(
        '/api/auth/logout',
        {},
        { ...bearer(token), origin: 'https://evil.example' },
      );
      expect(response.statusCode).toBe(403);
      expect((await get('/api/auth/session', bearer(token))).statusCode).toBe(200);
    });
  });

  describe('admin', () => {
    let adminToken: string;
    beforeAll(async () => {
      adminToken = await signInAsAdmin(test.app, test.database);
    });

    it.each([
      ['GET', '/api/auth/users', undefined],
      ['POST', '/api/auth/reset-password', { userId: '00000000-0000-4000-8000-000000000000' }],
    ] as const)('%s %s answers 401 anonymous and 403 to a non-admin', async (method, url, payload) => {
      const { token } = await registerUser(test.app, test.database);
      expect((await test.app.inject({ method, url, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
      const asUser = await test.app.inject({
        method,
        url,
        headers: bearer(token),
        ...(payload ? { payload } : {}),
      });
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json().message).toBe(messages.forbidden);
    });

    it('lists users without admins', async () => {
      const { user } = await registerUser(test.app, test.database);
      const response = await get('/api/auth/users', bearer(adminToken));
      expect(response.statusCode).toBe(200);
      const users = response.json().users as Array<{ id: string; role: string }>;
      expect(users.map((u) => u.id)).toContain(user.id);
      expect(users.every((u) => u.role !== 'admin')).toBe(true);
    });

    it('resets a password to a one-time temporary one the user must replace', async () => {
      const { token, user } = await registerUser(test.app, test.database);
      const reset = await post('/api/auth/reset-password', { userId: user.id }, bearer(adminToken));
      expect(reset.statusCode).toBe(200);
      const temporary = reset.json().temporary_password as string;
      expect(temporary.length).toBeGreaterThanOrEqual(20);
      expect(reset.json().message).toContain(temporary);
      expect((await get('/api/auth/session', bearer(token))).statusCode).toBe(401);

      const login = await post('/api/auth/login', { email: user.email, password: temporary });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.must_change_password).toBe(true);
      // A reset, not the account's first sign-in.
      expect(login.json().user.first_sign_in).toBe(false);
      const pending = login.json().token as string;
      expect((await get('/api/auth/users', bearer(pending))).json().message).toBe(
        messages.passwordChangeRequired,
      );
      const changed = await post(
        '/api/auth/change-password',
        { userId: user.id, originalPassword: temporary, newPassword: 'my own secret now' },
        bearer(pending),
      );
      expect(changed.json().user.must_change_password).toBe(false);
    });

    it('answers 404 for an unknown user and 400 for a malformed id', async () => {
      expect(
        (
          await post(
            '/api/auth/reset-password',
            { userId: '00000000-0000-4000-8000-000000000000' },
            bearer(adminToken),
          )
        ).statusCode,
      ).toBe(404);
      expect(
        (await post('/api/auth/reset-password', { userId: 'not-a-uuid' }, bearer(adminToken))).statusCode,
      ).toBe(400);
    });
  });

  it('limits each client address on the code endpoints', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '45' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/api/email-otp/send',
              payload: { email: uniqueEmail() },
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
