import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/password';
import {
  bearer,
  confirmWithPasskey,
  deviceOf,
  lastCode,
  logIn,
  passSecondFactor,
  registerUser,
  signInAsAdmin,
  uniqueEmail,
} from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { SoftwareAuthenticator } from './support/software-authenticator';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Passkeys (issue 23 item 1), every ceremony with a software authenticator: an admin's or store owner's
 * first sign-in registers one (recovery codes once), later sign-ins use it or a recovery code; any person may
 * add one and use it instead of a code for a transfer (bound to its amount and receiver) or a step-up; admin
 * actions that move money ask for it again after 5 minutes. And the attacks: replayed assertions, another
 * account's credential, another origin, a passkey for ₹100 to A spent on ₹1,000 or on B.
 */
describe(`passkeys on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let now = new Date();
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' }, clock: () => now });
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    test.app.inject({ method, url, ...(payload ? { payload } : {}), headers: bearer(token) });

  async function newAccount(role: 'admin' | 'merchant') {
    const email = uniqueEmail(role);
    const password = `${role} password 1`;
    await test.database.db
      .insertInto('users')
      .values({ email, username: role, role, password_hash: await hashPassword(password) })
      .execute();
    return { email, password };
  }

  async function passwordOnly(account: { email: string; password: string }) {
    const login = await test.app.inject({ method: 'POST', url: '/api/auth/login', payload: account });
    expect(login.statusCode).toBe(200);
    return login.json() as { token: string; user: { id: string }; second_factor: string | null };
  }

  async function options(token: string, body: object) {
    const answer = await call('POST', '/api/passkeys/authentication/options', token, body);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().options;
  }

  /** A code to the owner opens adding or removing a passkey for 5 minutes (purpose passkey_manage). */
  async function manageStepUp(token: string, email: string) {
    expect((await call('POST', '/Palm/step-up/send', token, { purpose: 'passkey_manage' })).statusCode).toBe(
      200,
    );
    const otp = await lastCode(test.database, email);
    const verified = await call('POST', '/Palm/step-up/verify', token, { purpose: 'passkey_manage', otp });
    expect(verified.statusCode, verified.body).toBe(200);
  }

  it("registers an admin's passkey at the first sign-in, with ten recovery codes shown once", async () => {
    const account = await newAccount('admin');
    const first = await passwordOnly(account);
    expect(first.second_factor).toBe('passkey_registration');
    // Nothing but the passkey steps yet.
    expect((await call('GET', '/api/auth/users', first.token)).statusCode).toBe(403);
    // A registration answered for another origin is refused, and its challenge is used up.
    const device = deviceOf(test.app, first.user.id);
    const wrongOrigin = (await call('POST', '/api/passkeys/registration/options', first.token)).json()
      .options;
    const refused = await call('POST', '/api/passkeys/registration/verify', first.token, {
      response: device.register(wrongOrigin, { origin: 'https://evil.example' }),
    });
    expect([refused.statusCode, refused.json().message]).toEqual([400, messages.passkeyNotVerified]);

    const { recoveryCodes } = await passSecondFactor(test.app, first.token);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await call('GET', '/api/auth/users', first.token)).statusCode).toBe(200);
    const stored = await test.database.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', first.user.id)
      .execute();
    expect(stored).toHaveLength(10);
    expect(stored.map((row) => row.code_hash)).not.toContain(recoveryCodes![0]);

    // The next sign-in asks for the passkey; registering a second one instead is refused.
    const later = await passwordOnly(account);
    expect(later.second_factor).toBe('passkey');
    const sneak = await call('POST', '/api/passkeys/registration/options', later.token);
    expect([sneak.statusCode, sneak.json().message]).toEqual([409, messages.passkeyAlreadyRegistered]);
    expect((await call('GET', '/api/auth/users', later.token)).statusCode).toBe(403);
    await passSecondFactor(test.app, later.token);
    expect((await call('GET', '/api/auth/users', later.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/session', later.token)).json().second_factor).toBeNull();
  });

  it('refuses a replayed assertion, an expired challenge, and one signed by another account’s passkey', async () => {
    const victim = await newAccount('admin');
    const attacker = await newAccount('admin');
    await logIn(test.app, victim);
    const attackerSession = await logIn(test.app, attacker);

    // The attacker knows the victim's password and answers the victim's challenge with their own passkey.
    const pending = await passwordOnly(victim);
    const challenge = await options(pending.token, { purpose: 'sign_in' });
    const foreign = await call('POST', '/api/passkeys/authentication/verify', pending.token, {
      response: deviceOf(test.app, attackerSession.user.id).assert(challenge),
    });
    expect([foreign.statusCode, foreign.json().message]).toEqual([400, messages.passkeyNotVerified]);
    // The challenge is spent: even the victim's device cannot use it now.
    const reused = await call('POST', '/api/passkeys/authentication/verify', pending.token, {
      response: deviceOf(test.app, pending.user.id).assert(challenge),
    });
    expect([reused.statusCode, reused.json().message]).toEqual([400, messages.passkeyChallengeExpired]);

    // A good assertion works once; the same answer again (replay) is refused, in this session or another.
    const fresh = await options(pending.token, { purpose: 'sign_in' });
    const answer = deviceOf(test.app, pending.user.id).assert(fresh);
    expect(
      (await call('POST', '/api/passkeys/authentication/verify', pending.token, { response: answer }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('POST', '/api/passkeys/authentication/verify', pending.token, { response: answer }))
        .statusCode,
    ).toBe(400);
    const other = await passwordOnly(victim);
    const replayed = await call('POST', '/api/passkeys/authentication/verify', other.token, {
      response: answer,
    });
    expect(replayed.statusCode).toBe(400);
    expect((await call('GET', '/api/auth/users', other.token)).statusCode).toBe(403);

    // A challenge answered after its 5 minutes is refused.
    const slow = await options(other.token, { purpose: 'sign_in' });
    advance(5 * 60_000 + 1_000);
    const late = await call('POST', '/api/passkeys/authentication/verify', other.token, {
      response: deviceOf(test.app, pending.user.id).assert(slow),
    });
    expect([late.statusCode, late.json().message]).toEqual([400, messages.passkeyChallengeExpired]);
  });

  it('signs in with a recovery code once, never twice, and a wrong one counts as a failed attempt', async () => {
    const account = await newAccount('merchant');
    const first = await passwordOnly(account);
    const { recoveryCodes } = await passSecondFactor(test.app, first.token);
    const code = recoveryCodes![3]!;

    const lost = await passwordOnly(account);
    const wrong = await call('POST', '/api/passkeys/recovery', lost.token, { code: 'aaaa-bbbb-cccc' });
    expect([wrong.statusCode, wrong.json().message]).toEqual([400, messages.recoveryCodeInvalid]);
    advance(60_000);
    const used = await call('POST', '/api/passkeys/recovery', lost.token, { code: code.toUpperCase() });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().remaining).toBe(9);
    expect((await call('GET', '/api/sessions', lost.token)).statusCode).toBe(200);

    const again = await passwordOnly(account);
    advance(60_000);
    const twice = await call('POST', '/api/passkeys/recovery', again.token, { code });
    expect([twice.statusCode, twice.json().message]).toEqual([400, messages.recoveryCodeInvalid]);
    expect((await call('GET', '/api/sessions', again.token)).statusCode).toBe(403);
  });

  it('asks an admin for the passkey again before moving money when its last use is over 5 minutes old', async () => {
    const admin = await signInAsAdmin(test.app, test.database);
    const person = await registerUser(test.app, test.database);
    const assign = () => call('POST', '/api/assignBalance', admin, { userId: person.user.id, amount: 10 });
    expect((await assign()).statusCode).toBe(200);

    advance(5 * 60_000 + 1_000);
    const stale = await assign();
    expect([stale.statusCode, stale.json().message]).toEqual([403, messages.passkeyReauthRequired]);
    // Reading is not moving money.
    expect((await call('GET', '/api/auth/users', admin)).statusCode).toBe(200);
    for (const [method, url] of [
      ['DELETE', '/api/transaction/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/payouts/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/disputes/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const answer = await call(
        method,
        url,
        admin,
        url.includes('disputes')
          ? { action: 'refund' }
          : url.includes('payouts')
            ? { action: 'settle' }
            : undefined,
      );
      expect([url, answer.json().message]).toEqual([url, messages.passkeyReauthRequired]);
    }

    expect((await confirmWithPasskey(test.app, admin, { purpose: 'reauth' })).purpose).toBe('reauth');
    expect((await assign()).statusCode).toBe(200);
    expect((await call('GET', '/api/dashboard', person.token)).json().user.balance).toBe('20.00');
  });

  describe('a person who adds a passkey in Settings', () => {
    let admin: string;
    beforeAll(async () => {
      admin = await signInAsAdmin(test.app, test.database);
    });

    async function personWithPasskey(rupees: number) {
      const email = uniqueEmail('person');
      const person = await registerUser(test.app, test.database, { email });
      expect((await call('GET', '/api/auth/session', person.token)).json().second_factor).toBeNull();
      // Adding a passkey needs the owner's code first: a stolen session alone cannot add its own.
      const early = await call('POST', '/api/passkeys/registration/options', person.token);
      expect([early.statusCode, early.json().message]).toEqual([403, messages.stepUpRequired]);
      await manageStepUp(person.token, email);
      const { options: created } = (
        await call('POST', '/api/passkeys/registration/options', person.token)
      ).json();
      const registered = await call('POST', '/api/passkeys/registration/verify', person.token, {
        response: deviceOf(test.app, person.user.id).register(created),
        name: 'My phone',
      });
      expect(registered.statusCode, registered.body).toBe(200);
      expect(registered.json().recovery_codes).toBeUndefined();
      expect(registered.json().passkey.name).toBe('My phone');
      if (rupees > 0) {
        await confirmWithPasskey(test.app, admin, { purpose: 'reauth' });
        const given = await call('POST', '/api/assignBalance', admin, {
          userId: person.user.id,
          amount: rupees,
        });
        expect(given.statusCode, given.body).toBe(200);
      }
      return { ...person, email };
    }

    const balanceOf = async (token: string) =>
      (await call('GET', '/api/dashboard', token)).json().user.balance as string;

    it('pays ₹100 to A with a passkey asked for ₹100 to A, and never ₹1,000 or B, nor twice', async () => {
      const sender = await personWithPasskey(2000);
      const a = await personWithPasskey(0);
      const b = await personWithPasskey(0);
      const transfer = (to: string, amount: number) =>
        call('POST', '/api/transfer', sender.token, { receiverEmail: to, amount });

      const approved = await confirmWithPasskey(test.app, sender.token, {
        purpose: 'transfer',
        amount: 100,
        receiverEmail: a.email,
      });
      expect(approved.purpose).toBe('transfer');
      const more = await transfer(a.email, 1000);
      expect([more.statusCode, more.json().message]).toEqual([403, messages.transferVerificationRequired]);
      const elsewhere = await transfer(b.email, 100);
      expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([
        403,
        messages.transferVerificationRequired,
      ]);
      expect((await transfer(a.email, 100)).statusCode).toBe(200);
      expect((await transfer(a.email, 100)).statusCode).toBe(403);
      expect(await balanceOf(a.token)).toBe('100.00');
      expect(await balanceOf(b.token)).toBe('0.00');
      expect(await balanceOf(sender.token)).toBe('1900.00');

      // Someone else's passkey cannot approve this sender's transfer.
      const challenge = await options(sender.token, {
        purpose: 'transfer',
        amount: 100,
        receiverEmail: b.email,
      });
      const foreign = await call('POST', '/api/passkeys/authentication/verify', sender.token, {
        response: deviceOf(test.app, b.user.id).assert(challenge),
      });
      expect(foreign.statusCode).toBe(400);
      expect((await transfer(b.email, 100)).statusCode).toBe(403);
    });

    it('opens a palm enrolment step-up with the passkey instead of a code', async () => {
      const person = await personWithPasskey(0);
      const before = (await call('GET', '/Palm/step-up/palm_enrol', person.token)).json();
      expect(before.verified).toBe(false);
      const confirmed = await confirmWithPasskey(test.app, person.token, { purpose: 'palm_enrol' });
      expect(confirmed.valid_until).toEqual(expect.any(String));
      expect((await call('GET', '/Palm/step-up/palm_enrol', person.token)).json().verified).toBe(true);
      // For that purpose only.
      expect((await call('GET', '/Palm/step-up/palm_unfreeze', person.token)).json().verified).toBe(false);
      const method = await test.database.db
        .selectFrom('palm_step_ups')
        .select('method')
        .where('user_id', '=', person.user.id)
        .where('purpose', '=', 'palm_enrol')
        .executeTakeFirstOrThrow();
      expect(method.method).toBe('passkey');
    });

    it('lists and removes passkeys with a step-up; a person may remove the last one', async () => {
      const person = await personWithPasskey(0);
      const listed = (await call('GET', '/api/passkeys', person.token)).json();
      expect(listed.passkeys).toHaveLength(1);
      expect(listed.second_factor).toBeNull();
      const id = listed.passkeys[0].id as string;
      advance(5 * 60_000 + 1_000);
      const early = await call('DELETE', `/api/passkeys/${id}`, person.token);
      expect([early.statusCode, early.json().message]).toEqual([403, messages.stepUpRequired]);
      // The passkey itself can be the step-up.
      await confirmWithPasskey(test.app, person.token, { purpose: 'passkey_manage' });
      expect((await call('DELETE', `/api/passkeys/${id}`, person.token)).statusCode).toBe(200);
      expect((await call('GET', '/api/passkeys', person.token)).json().passkeys).toEqual([]);
    });
  });

  it("opens a store owner's bank account step-up with the passkey instead of a code", async () => {
    const admin = await signInAsAdmin(test.app, test.database);
    const store = await approvedMerchant(test.app, test.database, admin, 'Passkey Dosa');
    const account = { holder_name: 'Lakshmi', account_number: '123456789012', ifsc: 'HDFC0001234' };
    const before = await call('POST', '/api/merchant/bank-accounts', store.token, account);
    expect([before.statusCode, before.json().message]).toEqual([403, messages.stepUpRequired]);
    await confirmWithPasskey(test.app, store.token, { purpose: 'store_bank_account' });
    const added = await call('POST', '/api/merchant/bank-accounts', store.token, account);
    expect(added.statusCode, added.body).toBe(200);
    // The bank account's step-up does not open withdrawals.
    const withdrawal = await call('POST', '/api/merchant/withdrawals', store.token, {
      amount: 1,
      bank_account_id: added.json().bank_accounts[0].id,
    });
    expect([withdrawal.statusCode, withdrawal.json().message]).toEqual([403, messages.stepUpRequired]);
  });

  it("keeps an admin's last passkey, removes a second one, and never another account's", async () => {
    const account = await newAccount('admin');
    const { token, user } = await logIn(test.app, account);
    const [only] = (await call('GET', '/api/passkeys', token)).json().passkeys as Array<{ id: string }>;
    await confirmWithPasskey(test.app, token, { purpose: 'passkey_manage' });
    const last = await call('DELETE', `/api/passkeys/${only!.id}`, token);
    expect([last.statusCode, last.json().message]).toEqual([409, messages.passkeyLastOneKept]);

    const spare = new SoftwareAuthenticator(test.app.env.WEBAUTHN_ORIGINS[0]!);
    const { options: created } = (await call('POST', '/api/passkeys/registration/options', token)).json();
    const added = await call('POST', '/api/passkeys/registration/verify', token, {
      response: spare.register(created),
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().recovery_codes).toBeUndefined();

    const stranger = await logIn(test.app, await newAccount('admin'));
    await confirmWithPasskey(test.app, stranger.token, { purpose: 'passkey_manage' });
    expect(
      (await call('DELETE', `/api/passkeys/${added.json().passkey.id}`, stranger.token)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/passkeys/${added.json().passkey.id}`, token)).statusCode).toBe(200);
    expect((await call('GET', '/api/passkeys', token)).json().passkeys).toHaveLength(1);
    expect(user.id).toEqual(expect.any(String));
  });
});
