import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lastCode, registerUser, uniqueEmail } from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 23 item 3: a stranger must not lock a person out. Failed password and code attempts count per
 * (account, client): another client's failures neither lock the owner's sign-in nor block the owner's
 * transfer codes; a client's repeated failures wait 1 s, 2 s, 4 s (429 with Retry-After) before the spec's
 * lock at 5 in 15 minutes; many clients together only slow the account, and the owner hears of it once per
 * burst. The attacks go through POST /api/auth/login (passwords and codes) and POST /api/email-otp/verify
 * (codes); /api/verify-sms-otp, /api/auth/password-reset and the palm step-up check codes the same way.
 */

describe(`no lock-out by strangers on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let nowMs = Date.now();
  const clock = () => new Date(nowMs);
  /** Moves the server's clock on: the delays are waited out without sleeping. */
  const advance = (ms: number) => {
    nowMs += ms;
  };

  const OWNER = '127.0.0.1';
  let strangers = 0;
  /** A client address no earlier attack used. */
  const strangerAddress = () => {
    strangers += 1;
    return `203.0.113.${strangers}`;
  };

  const post = (url: string, payload: object, options: { from?: string; token?: string } = {}) =>
    test.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: options.from ?? OWNER,
      headers: options.token ? bearer(options.token) : {},
    });

  /** Five wrong passwords for `email` from one client, each after its delay: 401 every time. */
  async function fiveWrongPasswords(email: string, from: string) {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await post(
        '/api/auth/login',
        { email, password: `not the password ${attempt}` },
        { from },
      );
      expect(wrong.statusCode).toBe(401);
      advance(20_000);
    }
  }

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' }, clock });
  });
  afterAll(async () => {
    await test.close();
  });

  it("a stranger's five wrong passwords do not refuse the owner's right one", async () => {
    const { user, password } = await registerUser(test.app, test.database, { email: uniqueEmail('lock') });
    const stranger = strangerAddress();
    await fiveWrongPasswords(user.email!, stranger);

    // The stranger's own client is locked, with the spec's text...
    const sixth = await post('/api/auth/login', { email: user.email, password }, { from: stranger });
    expect([sixth.statusCode, sixth.json().message]).toEqual([429, messages.tooManyAttempts]);
    // ...the owner's is not.
    const owner = await post('/api/auth/login', { email: user.email, password });
    expect(owner.statusCode).toBe(200);
  });

  it("a stranger's failures do not block the owner's transfer codes", async () => {
    const { user, token } = await registerUser(test.app, test.database, { email: uniqueEmail('xfer') });
    await fiveWrongPasswords(user.email!, strangerAddress());

    const sent = await post('/api/email-otp/send', { email: user.email, purpose: 'transfer' }, { token });
    expect(sent.statusCode).toBe(200);
    const otp = await lastCode(test.database, user.email!);
    const verified = await post('/api/email-otp/verify', { email: user.email, otp }, { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().purpose).toBe('transfer');
  });

  it("many strangers' failures only slow the owner's code sign-in, never stop it", async () => {
    const { user } = await registerUser(test.app, test.database, { email: uniqueEmail('otp') });
    // Strangers from many addresses take turns, ten seconds apart: far past the account's ceiling.
    const from = Array.from({ length: 8 }, strangerAddress);
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const wrong = await post(
        '/api/auth/login',
        { email: user.email, password: `guess ${attempt}` },
        { from: from[attempt % from.length]! },
      );
      expect([401, 429]).toContain(wrong.statusCode);
      advance(10_000);
    }

    const sent = await post('/api/email-otp/send', { email: user.email, purpose: 'login' });
    expect(sent.statusCode).toBe(200);
    const otp = await lastCode(test.database, user.email!);
    // Slowed: told how long to wait, and the wait is short...
    const slowed = await post('/api/auth/login', { email: user.email, otp });
    expect([slowed.statusCode, slowed.json().message]).toEqual([429, messages.tooManyAttempts]);
    const waitS = Number(slowed.headers['retry-after']);
    expect(waitS).toBeGreaterThanOrEqual(1);
    expect(waitS).toBeLessThanOrEqual(60);
    // ...and then signed in.
    advance(waitS * 1000);
    expect((await post('/api/auth/login', { email: user.email, otp })).statusCode).toBe(200);
  });

  it("a stranger's wrong codes do not stop the owner's code sign-in", async () => {
    const { user } = await registerUser(test.app, test.database, { email: uniqueEmail('code') });
    const stranger = strangerAddress();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await post(
        '/api/email-otp/verify',
        { email: user.email, otp: String(100_000 + attempt), purpose: 'login' },
        { from: stranger },
      );
      expect(wrong.statusCode).toBe(400);
      advance(20_000);
    }
    const sent = await post('/api/email-otp/send', { email: user.email, purpose: 'login' });
    expect(sent.statusCode).toBe(200);
    const otp = await lastCode(test.database, user.email!);
    const signIn = await post('/api/email-otp/verify', { email: user.email, otp, purpose: 'login' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().purpose).toBe('login');
  });

  it('lets one client retry once at once, then wait 1 s, 2 s, 4 s, answered 429 with Retry-After', async () => {
    const { user, password } = await registerUser(test.app, test.database, { email: uniqueEmail('wait') });
    const from = strangerAddress();
    const attempt = () => post('/api/auth/login', { email: user.email, password: 'wrong again' }, { from });

    // A typo is retried at once...
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(401);
    // ...and every failure after makes the next try wait twice as long.
    for (const waitS of [1, 2, 4]) {
      const tooSoon = await attempt();
      expect([tooSoon.statusCode, tooSoon.json().message]).toEqual([429, messages.tooManyAttempts]);
      expect(tooSoon.headers['retry-after']).toBe(String(waitS));
      advance(waitS * 1000);
      expect((await attempt()).statusCode).toBe(401);
    }
    // Five failures: the spec's lock for this client, whatever it sends, for 15 minutes.
    advance(60_000);
    const locked = await post('/api/auth/login', { email: user.email, password }, { from });
    expect([locked.statusCode, locked.json().message]).toEqual([429, messages.tooManyAttempts]);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    advance(15 * 60_000);
    expect((await post('/api/auth/login', { email: user.email, password }, { from })).statusCode).toBe(200);
  });

  it('tells the owner of repeated failures once per burst, not once per attempt', async () => {
    const { user } = await registerUser(test.app, test.database, { email: uniqueEmail('told') });
    const notices = async () =>
      (
        await test.database.db
          .selectFrom('outbox_messages')
          .select('body')
          .where('to_address', '=', user.email!)
          .execute()
      ).filter((message) => /failed to sign in/i.test(message.body));

    await fiveWrongPasswords(user.email!, strangerAddress());
    await fiveWrongPasswords(user.email!, strangerAddress());
    const told = await notices();
    expect(told).toHaveLength(1);
    expect(told[0]!.body).not.toContain('203.0.113');
  });
});
