import { messages } from '@hasta/contracts/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PALM_REGISTRATION_ATTEMPTS_PER_DAY } from '../src/palm/register-palm';
import {
  bearer,
  lastCode,
  lastMessage,
  registerUser,
  signInAsAdmin,
  uniquePhone,
} from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { registerPalm, scanOf, stepUp } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 21, item 1 and the registration half of item 5: a palm is enrolled only with its account owner's
 * fresh step-up (or their approval of an admin's request), and registration is no oracle of who is enrolled.
 */
describe(`palm enrolment needs the owner on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const post = (url: string, token: string | undefined, payload: object = {}) =>
    injectScan(test.app, { method: 'POST', url, payload, headers: token ? bearer(token) : {} });
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
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000', ...RAISED_PALM_RATE_LIMITS } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterEach(() => {
    vi.useRealTimers();
  });
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
      expect(taken.json().message).toBe(messages.palmRegistrationRefused);
      // The palm's own owner may be told it is theirs already (registering it again on the other hand).
      // (A landmark scan comes oriented as a right hand, so the same palm is found.)
      const again = await registerPalm(test.app, owner.token, 'left', {
        ...scanOf(42, [8, 9, 10]),
        roi: 'landmarks',
      });
      expect([again.statusCode, again.json().message]).toEqual([409, messages.palmAlreadyEnrolled]);
      // Every attempt that reached the search counts (the mixed frames did not): 1 so far, then up to the
      // daily limit, then 429.
      for (let i = 1; i < PALM_REGISTRATION_ATTEMPTS_PER_DAY; i++) {
        const attempt = await registerPalm(test.app, prober.token, 'right', scanOf(42, [11 + i, 30 + i]));
        expect(attempt.statusCode).toBe(400);
      }
      const limited = await registerPalm(test.app, prober.token, 'right', scanOf(45, [0, 1, 2]));
      expect([limited.statusCode, limited.json().message]).toEqual([429, messages.palmRegistrationLimit]);
      // A day later the account may try again.
      await test.database.db
        .updateTable('palm_registration_attempts')
        .set({ created_at: new Date(Date.now() - 25 * 60 * 60_000) })
        .where('user_id', '=', prober.user.id)
        .execute();
      expect((await registerPalm(test.app, prober.token, 'right', scanOf(45, [0, 1, 2]))).statusCode).toBe(
        200,
      );
    });
  });

  describe('the owner’s step-up', () => {
    it('sends the code to the owner’s own phone, counts for that session and purpose, for 5 minutes', async () => {
      const phone = uniquePhone();
      const owner = await registerUser(test.app, test.database, { phone });
      const send = (token: string, purpose = 'palm_enrol') => post('/Palm/step-up/send', token, { purpose });
      const verify = (token: string, otp: string, purpose = 'palm_enrol') =>
        post('/Palm/step-up/verify', token, { purpose, otp });
      expect((await post('/Palm/step-up/send', undefined, { purpose: 'palm_enrol' })).statusCode).toBe(401);
      const sent = await send(owner.token);
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({
        success: true,
        message: messages.stepUpCodeSentPhone,
        channel: 'sms',
        sent_to: `••••${phone.slice(-4)}`,
      });
      const code = await lastCode(test.database, phone);
      // Another session of the same person cannot use this session's code.
      const login = await test.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { phone, password: owner.password },
      });
      const otherSession = login.json().token as string;
      // Each failure makes this client's next try wait a little (lockout-attacks.test.ts): the faked clock
      // waits it out.
      vi.useFakeTimers({ toFake: ['Date'] });
      const waitOutDelay = () => vi.setSystemTime(Date.now() + 10_000);
      expect((await verify(otherSession, code)).json().message).toBe(messages.invalidVerificationCode);
      waitOutDelay();
      const wrong = await verify(owner.token, code === '000000' ? '111111' : '000000');
      expect([wrong.statusCode, wrong.json().message]).toEqual([400, messages.invalidVerificationCode]);
      waitOutDelay();
      // A code for palm_enrol is no code for palm_unfreeze.
      expect((await verify(owner.token, code, 'palm_unfreeze')).statusCode).toBe(400);
      waitOutDelay();
      const verified = await verify(owner.token, code);
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toMatchObject({ success: true, message: messages.stepUpVerified });
      const validFor = Date.parse(verified.json().valid_until) - Date.now();
      expect(validFor).toBeGreaterThan(4 * 60_000);
      expect(validFor).toBeLessThanOrEqual(5 * 60_000);
      // Single use.
      expect((await verify(owner.token, code)).statusCode).toBe(400);
      // The session may ask whether it has one (a reloaded page need not ask for another code).
      expect((await get('/Palm/step-up/palm_enrol', owner.token)).json()).toEqual({
        verified: true,
        valid_until: verified.json().valid_until,
      });
      expect((await get('/Palm/step-up/palm_enrol', otherSession)).json()).toEqual({
        verified: false,
        valid_until: null,
      });
      expect((await get('/Palm/step-up/palm_unfreeze', owner.token)).json().verified).toBe(false);

      // The step-up counts for this session only.
      expect((await rawRegister(otherSession, 'left', 50)).json().message).toBe(messages.stepUpRequired);
      const done = await rawRegister(owner.token, 'left', 50);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ success: true, state: true, which_hand: 'left' });
      // ...and for 5 minutes: an older one no longer does.
      await test.database.db
        .updateTable('palm_step_ups')
        .set({ verified_at: new Date(Date.now() - 6 * 60_000), expires_at: new Date(Date.now() - 60_000) })
        .where('user_id', '=', owner.user.id)
        .execute();
      expect((await rawRegister(owner.token, 'right', 51)).json().message).toBe(messages.stepUpRequired);
    });

    it('sends step-up codes within the code limits: 60 s between two, 3 in 10 minutes', async () => {
      const owner = await registerUser(test.app, test.database);
      expect((await post('/Palm/step-up/send', owner.token, { purpose: 'palm_enrol' })).statusCode).toBe(200);
      const soon = await post('/Palm/step-up/send', owner.token, { purpose: 'palm_enrol' });
      expect([soon.statusCode, soon.json().message]).toEqual([429, messages.tooManyOtpRequests]);
      expect((await post('/Palm/step-up/send', owner.token, { purpose: 'palm_unfreeze' })).statusCode).toBe(
        200,
      );
      // With signup's code, three in 10 minutes: a fourth is refused even past the cooldown.
      await test.database.db
        .updateTable('otp_events')
        .set({ created_at: new Date(Date.now() - 61_000) })
        .where('identifier', '=', owner.user.email!)
        .execute();
      const fourth = await post('/Palm/step-up/send', owner.token, { purpose: 'palm_enrol' });
      expect([fourth.statusCode, fourth.json().message]).toEqual([429, messages.tooManyOtpRequests]);
    });
  });

  describe('admin-assisted registration (spec §2.17)', () => {
    const adminRegister = (userId: string, hand: 'left' | 'right', identity: number) =>
      rawRegister(adminToken, hand, identity, { user_id: userId, admin_mode: true });

    it('enrols only when the owner approves with the code on their own session', async () => {
      const phone = uniquePhone();
      const owner = await registerUser(test.app, test.database, { phone });
      const stranger = await registerUser(test.app, test.database);
      const shop = await registerUser(test.app, test.database);
      await give(owner.user.id, 1000);
      const started = await adminRegister(owner.user.id, 'right', 60);
      expect(started.statusCode).toBe(202);
      expect(started.json()).toMatchObject({
        success: true,
        state: false,
        approval_required: true,
        message: messages.palmEnrolmentApprovalSent,
        request: {
          which_hand: 'right',
          status: 'waiting',
          channel: 'sms',
          sent_to: `••••${phone.slice(-4)}`,
        },
      });
      const request = started.json().request;
      expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBe(10 * 60_000);
      const message = await lastMessage(test.database, phone);
      expect(message.body).toContain('right hand');
      expect(message.body).toContain('An admin at Hasta started registering a palm');
      const code = await lastCode(test.database, phone);
      const approve = (token: string, otp: string) =>
        post(`/Palm/enrolment-requests/${request.id}/approve`, token, { otp });

      // The admin sees it; the owner lists it; a stranger is told it does not exist.
      expect((await get(`/Palm/enrolment-requests/${request.id}`, adminToken)).json()).toEqual(request);
      expect((await get('/Palm/enrolment-requests', owner.token)).json()).toEqual({ requests: [request] });
      expect((await get(`/Palm/enrolment-requests/${request.id}`, stranger.token)).statusCode).toBe(404);
      expect((await approve(stranger.token, code)).statusCode).toBe(404);
      // The admin, even with the right code, cannot approve it; nor decline it.
      const byAdmin = await approve(adminToken, code);
      expect(byAdmin.statusCode).toBe(403);
      expect((await post(`/Palm/enrolment-requests/${request.id}/decline`, adminToken)).statusCode).toBe(403);
      const wrong = await approve(owner.token, code === '000000' ? '111111' : '000000');
      expect([wrong.statusCode, wrong.json().message]).toEqual([400, messages.invalidVerificationCode]);

      const approved = await approve(owner.token, code);
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toMatchObject({ success: true, state: true, which_hand: 'right' });
      expect(approved.json().palm_hash).toMatch(/^[0-9a-f]{64}$/);
      expect((await get(`/Palm/enrolment-requests/${request.id}`, adminToken)).json().status).toBe(
        'approved',
      );
      expect((await approve(owner.token, code)).json().message).toBe(messages.palmEnrolmentRequestClosed);
      expect((await get('/Palm/enrolment-requests', owner.token)).json()).toEqual({ requests: [] });
      expect(await handsOf(adminToken, owner.user.id)).toEqual({
        left_hand_registered: false,
        right_hand_registered: true,
      });
      const notice = await lastMessage(test.database, phone);
      expect(notice.body).toContain('A palm was registered on your Hasta account');
      expect(notice.body).toContain('right hand');
      expect(notice.body).toContain('If this was not you');
      // The approved palm names its owner; newly enrolled, it pays only with the owner's code for a while.
      const paid = await post('/Palm/authenticate', shop.token, { amount: 5, scan: scanOf(60, [5, 6, 7]) });
      expect(paid.statusCode).toBe(202);
      expect(paid.json().confirmation.reason).toBe('new_palm');
      // The sealed template is gone from a closed request.
      const stored = await test.database.db
        .selectFrom('palm_enrolment_requests')
        .select('sealed_template')
        .where('id', '=', request.id)
        .executeTakeFirstOrThrow();
      expect(stored.sealed_template).toBeNull();
    });

    it('gives a request up after 5 wrong codes, on decline, and once it expires', async () => {
      const owner = await registerUser(test.app, test.database);
      const email = owner.user.email!;
      const first = (await adminRegister(owner.user.id, 'left', 61)).json().request;
      const code = await lastCode(test.database, email);
      const wrongCode = code === '000000' ? '111111' : '000000';
      for (let i = 1; i < 5; i++) {
        const wrong = await post(`/Palm/enrolment-requests/${first.id}/approve`, owner.token, {
          otp: wrongCode,
        });
        expect(wrong.statusCode).toBe(400);
      }
      const fifth = await post(`/Palm/enrolment-requests/${first.id}/approve`, owner.token, {
        otp: wrongCode,
      });
      expect([fifth.statusCode, fifth.json().message]).toEqual([429, messages.palmEnrolmentRequestFailed]);
      expect((await get(`/Palm/enrolment-requests/${first.id}`, owner.token)).json().status).toBe('failed');
      const late = await post(`/Palm/enrolment-requests/${first.id}/approve`, owner.token, { otp: code });
      expect(late.json().message).toBe(messages.palmEnrolmentRequestClosed);

      await test.database.db
        .updateTable('otp_events')
        .set({ created_at: new Date(Date.now() - 61_000) })
        .where('identifier', '=', email)
        .execute();
      const second = (await adminRegister(owner.user.id, 'left', 61)).json().request;
      const declined = await post(`/Palm/enrolment-requests/${second.id}/decline`, owner.token);
      expect([declined.statusCode, declined.json().message]).toEqual([200, messages.palmEnrolmentDeclined]);
      expect((await get(`/Palm/enrolment-requests/${second.id}`, adminToken)).json().status).toBe('declined');

      await test.database.db
        .updateTable('otp_events')
        .set({ created_at: new Date(Date.now() - 11 * 60_000) })
        .where('identifier', '=', email)
        .execute();
      const third = (await adminRegister(owner.user.id, 'left', 61)).json().request;
      const thirdCode = await lastCode(test.database, email);
      await test.database.db
        .updateTable('palm_enrolment_requests')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', third.id)
        .execute();
      expect((await get('/Palm/enrolment-requests', owner.token)).json()).toEqual({ requests: [] });
      expect((await get(`/Palm/enrolment-requests/${third.id}`, adminToken)).json().status).toBe('expired');
      const expired = await post(`/Palm/enrolment-requests/${third.id}/approve`, owner.token, {
        otp: thirdCode,
      });
      expect(expired.json().message).toBe(messages.palmEnrolmentRequestClosed);
      expect(await handsOf(owner.token)).toEqual({
        left_hand_registered: false,
        right_hand_registered: false,
      });
      expect((await get(`/Palm/enrolment-requests/${randomUUID()}`, owner.token)).statusCode).toBe(404);
    });

    it('enrols once when approvals race, and drops the templates of requests nobody answered', async () => {
      const owner = await registerUser(test.app, test.database);
      const request = (await adminRegister(owner.user.id, 'left', 63)).json().request;
      const code = await lastCode(test.database, owner.user.email!);
      const answers = await Promise.all(
        [0, 1, 2].map(() =>
          post(`/Palm/enrolment-requests/${request.id}/approve`, owner.token, { otp: code }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
      const templates = await test.database.db
        .selectFrom('palm_templates')
        .select('id')
        .where('user_id', '=', owner.user.id)
        .execute();
      expect(templates).toHaveLength(1);

      const forgotten = await registerUser(test.app, test.database);
      const stale = (await adminRegister(forgotten.user.id, 'right', 64)).json().request;
      await test.database.db
        .updateTable('palm_enrolment_requests')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', stale.id)
        .execute();
      const someoneElse = await registerUser(test.app, test.database);
      expect((await adminRegister(someoneElse.user.id, 'right', 65)).statusCode).toBe(202);
      const row = await test.database.db
        .selectFrom('palm_enrolment_requests')
        .select(['status', 'sealed_template'])
        .where('id', '=', stale.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'expired', sealed_template: null });
    });

    it('searches again on approval: a palm someone enrolled since the scan is refused then', async () => {
      const owner = await registerUser(test.app, test.database);
      const request = (await adminRegister(owner.user.id, 'left', 66)).json().request;
      const code = await lastCode(test.database, owner.user.email!);
      // The same palm is enrolled by someone else while the request waits.
      const quicker = await registerUser(test.app, test.database);
      expect((await registerPalm(test.app, quicker.token, 'left', scanOf(66, [5, 6, 7]))).statusCode).toBe(
        200,
      );
      const approved = await post(`/Palm/enrolment-requests/${request.id}/approve`, owner.token, {
        otp: code,
      });
      expect([approved.statusCode, approved.json().message]).toEqual([400, messages.palmRegistrationRefused]);
      expect((await get(`/Palm/enrolment-requests/${request.id}`, owner.token)).json().status).toBe('failed');
      expect(await handsOf(owner.token)).toEqual({
        left_hand_registered: false,
        right_hand_registered: false,
      });
    });

    it('answers an admin’s scan of a palm enrolled elsewhere as any failed registration', async () => {
      const someone = await registerUser(test.app, test.database);
      expect((await registerPalm(test.app, someone.token, 'left', scanOf(62, [0, 1, 2]))).statusCode).toBe(
        200,
      );
      const owner = await registerUser(test.app, test.database);
      const taken = await adminRegister(owner.user.id, 'left', 62);
      expect([taken.statusCode, taken.json().message]).toEqual([400, messages.palmRegistrationRefused]);
    });
  });

  it('tells the owner of every enrolment, withdrawal and erasure', async () => {
    const phone = uniquePhone();
    const owner = await registerUser(test.app, test.database, { phone });
    expect((await registerPalm(test.app, owner.token, 'left', scanOf(70, [0, 1, 2]))).statusCode).toBe(200);
    const enrolled = await lastMessage(test.database, phone);
    expect(enrolled.body).toContain('A palm was registered on your Hasta account for your left hand on');
    expect(enrolled.body).toContain('If this was not you');
    expect(enrolled.body).not.toContain('admin');
    expect((await post('/api/consent/withdraw', owner.token)).statusCode).toBe(200);
    expect((await lastMessage(test.database, phone)).body).toContain(
      'Palm consent was withdrawn for your left hand',
    );
    expect((await post('/api/consent/erase', owner.token)).statusCode).toBe(200);
    expect((await lastMessage(test.database, phone)).body).toContain(
      'The palm data of your left hand was erased',
    );
  });

  it('pauses palm pay until the owner turns it back on with a fresh step-up', async () => {
    const phone = uniquePhone();
    const owner = await registerUser(test.app, test.database, { phone });
    expect((await get('/api/palm/status', owner.token)).json()).toEqual({ frozen: false, frozen_at: null });
    await stepUp(test.app, owner.token, 'palm_unfreeze');
    const notFrozen = await post('/api/palm/unfreeze', owner.token);
    expect([notFrozen.statusCode, notFrozen.json().message]).toEqual([409, messages.palmPayNotFrozen]);

    const other = await registerUser(test.app, test.database);
    for (const user of [owner, other])
      await test.database.db
        .insertInto('palm_pay_freezes')
        .values({ user_id: user.user.id, reason: 'not_me' })
        .execute();
    const status = (await get('/api/palm/status', other.token)).json();
    expect(status.frozen).toBe(true);
    expect(Date.parse(status.frozen_at)).toBeGreaterThan(Date.now() - 60_000);
    // Without a palm_unfreeze step-up of this session (a palm_enrol one is not it), palm pay stays paused.
    await stepUp(test.app, other.token, 'palm_enrol');
    const refused = await post('/api/palm/unfreeze', other.token);
    expect([refused.statusCode, refused.json().message]).toEqual([403, messages.stepUpRequired]);
    expect((await get('/api/palm/status', other.token)).json().frozen).toBe(true);

    const lifted = await post('/api/palm/unfreeze', owner.token);
    expect([lifted.statusCode, lifted.json().message]).toEqual([200, messages.palmPayUnfrozen]);
    expect((await get('/api/palm/status', owner.token)).json()).toEqual({ frozen: false, frozen_at: null });
    const events = await test.database.db
      .selectFrom('palm_pay_freeze_events')
      .select('type')
      .where('user_id', '=', owner.user.id)
      .execute();
    expect(events).toEqual([{ type: 'unfrozen' }]);
    expect((await lastMessage(test.database, phone)).body).toContain('Palm pay was turned back on');
    expect((await post('/api/palm/unfreeze', owner.token)).statusCode).toBe(409);
    expect((await get('/api/palm/status', other.token)).json().frozen).toBe(true);
  });
});
