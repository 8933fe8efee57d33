import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { registerPalm, scanOf } from './support/palm-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 21, item 1 and the registration half of item 5: a palm is enrolled only with its account owner's
 * fresh step-up (or their approval of an admin's request), and registration is no oracle of who is enrolled.
 */
describe(`palm enrolment needs the owner on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const post = (url: string, token: string | undefined, payload: object = {}) =>
    test.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
  const get = (url: string, token: string) => test.app.inject({ method: 'GET', url, headers: bearer(token) });
  const give = (userId: string, amount: number) => post('/api/assignBalance', adminToken, { userId, amount });
  /** A registration straight to the endpoint, as an attacker holding only a session sends it. */
  const rawRegister = (token: string, hand: 'left' | 'right', identity: number, extra: object = {}) =>
    post('/Palm/register', token, {
      which_hand: hand,
      consent: true,
      scan: scanOf(identity, [0, 1, 2]),
      ...extra,
    });
  const handsOf = async (token: string, userId?: string) =>
    (await post('/Palm/user/palm-registration-state', token, userId ? { user_id: userId } : {})).json();

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  describe('attacks', () => {
    it('a stolen session alone cannot enrol the thief’s palm on the victim’s free hand', async () => {
      const victim = await registerUser(test.app, test.database);
      const shop = await registerUser(test.app, test.database);
      await give(victim.user.id, 1000);
      const enrolled = await rawRegister(victim.token, 'right', 40);
      expect([enrolled.statusCode, enrolled.json().message]).toEqual([403, messages.stepUpRequired]);
      expect(await handsOf(victim.token)).toEqual({
        left_hand_registered: false,
        right_hand_registered: false,
      });
      const paid = await post('/Palm/authenticate', shop.token, { amount: 500, scan: scanOf(40, [5, 6, 7]) });
      expect(paid.json().message).toBe(messages.palmNotRecognised);
    });

    it('an admin alone cannot enrol a palm on a user: nothing is enrolled until the owner approves', async () => {
      const victim = await registerUser(test.app, test.database);
      const shop = await registerUser(test.app, test.database);
      await give(victim.user.id, 1000);
      const started = await rawRegister(adminToken, 'left', 41, {
        user_id: victim.user.id,
        admin_mode: true,
      });
      expect(started.statusCode).toBe(202);
      expect(started.json()).toMatchObject({ success: true, state: false, approval_required: true });
      expect(await handsOf(adminToken, victim.user.id)).toEqual({
        left_hand_registered: false,
        right_hand_registered: false,
      });
      const paid = await post('/Palm/authenticate', shop.token, { amount: 500, scan: scanOf(41, [5, 6, 7]) });
      expect(paid.json().message).toBe(messages.palmNotRecognised);
    });

    it('a palm someone else enrolled answers as any failed registration, and tries are limited per day', async () => {
      const owner = await registerUser(test.app, test.database);
      expect((await registerPalm(test.app, owner.token, 'right', scanOf(42, [0, 1, 2]))).statusCode).toBe(
        200,
      );
      const prober = await registerUser(test.app, test.database);
      const taken = await registerPalm(test.app, prober.token, 'right', scanOf(42, [5, 6, 7]));
      const mixed = scanOf(43, [0]);
      mixed.frames.push(...scanOf(44, [0, 1]).frames);
      const failed = await registerPalm(test.app, prober.token, 'right', mixed);
      expect(taken.statusCode).toBe(failed.statusCode);
      expect(taken.json()).toEqual(failed.json());
      expect(taken.statusCode).toBe(400);
    });
  });
});
