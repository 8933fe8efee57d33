import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lastCode, registerUser, signInAsAdmin, uniquePhone } from './support/auth-helpers';
import {
  askChallenge,
  createPairingCode,
  pairDevice,
  pairedTerminal,
  pairThisBrowser,
  signedScan,
  type SoftwareDevice,
} from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant, type ApprovedMerchant } from './support/merchant-helpers';
import { palmSupply, stepUp } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Devices (issue 22): a kiosk enrols the person signed in on it, a terminal takes its store's payments alone
 * or beside its owner, a person's own browser receives; each payment and enrolment names its device, which
 * the owner and the admin see with its payments.
 */
describe(`devices on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  let store: ApprovedMerchant;
  let kioskId: string;
  const palms = palmSupply(2600);

  const post = (url: string, payload: object, headers: Record<string, string>) =>
    test.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string>) =>
    test.app.inject({ method: 'GET', url, headers });
  const devicesSeenBy = async (token: string) =>
    (await get('/api/devices', bearer(token))).json().devices as {
      id: string;
      kind: string;
      payment_count: number;
      enrolment_count: number;
      last_seen_at: string | null;
    }[];

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', PALM_NEW_ENROLMENT_HOLD_HOURS: '0', ...RAISED_PALM_RATE_LIMITS },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    store = await approvedMerchant(test.app, test.database, adminToken, 'Device Kirana');
    kioskId = (
      await test.database.db
        .insertInto('kiosks')
        .values({
          name: 'Forum Mall Kiosk',
          lat: 12.93,
          lng: 77.61,
          address: 'Hosur Road',
          city: 'Bengaluru',
          pincode: '560029',
          status: 'active',
          type: 'mall',
          hours: '10-10',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  /** Enrols the signed-in person's right hand on `device` (their step-up done), as /kiosk or /palm-register. */
  async function enrolOn(device: SoftwareDevice, token: string, palm: number) {
    await stepUp(test.app, token);
    const scan = palms.freshScan(palm);
    return post(
      '/Palm/register',
      {
        which_hand: 'right',
        consent: true,
        scan,
        ...(await signedScan(test.app, device, { purpose: 'enrol' }, scan.frames, token)),
      },
      device.headers(token),
    );
  }

  it('a kiosk paired by the admin enrols the person signed in on it, and the admin sees the enrolment', async () => {
    const kiosk = await pairDevice(
      test.app,
      await createPairingCode(test.app, adminToken, { kind: 'kiosk', kioskId, name: 'Forum kiosk 1' }),
    );
    const me = (await get('/api/devices/me', kiosk.headers())).json().device;
    expect(me).toMatchObject({
      kind: 'kiosk',
      name: 'Forum kiosk 1',
      kiosk_id: kioskId,
      kiosk_name: 'Forum Mall Kiosk',
    });
    const person = await registerUser(test.app, test.database);
    const enrolled = await enrolOn(kiosk, person.token, palms.newIdentity());
    expect(enrolled.statusCode).toBe(200);
    const seen = (await devicesSeenBy(adminToken)).find((device) => device.id === kiosk.id);
    expect(seen).toMatchObject({ kind: 'kiosk', enrolment_count: 1, payment_count: 0 });
    expect(seen?.last_seen_at).not.toBeNull();
    // Not the person's, nor the store owner's, to see.
    expect((await devicesSeenBy(person.token)).map((device) => device.id)).not.toContain(kiosk.id);
    expect((await devicesSeenBy(store.token)).map((device) => device.id)).not.toContain(kiosk.id);
  });

  it('a code sign-in on a kiosk is the person’s palm step-up; a password, another device or a revoked kiosk is not', async () => {
    const kiosk = await pairDevice(
      test.app,
      await createPairingCode(test.app, adminToken, { kind: 'kiosk', kioskId, name: 'Forum kiosk 2' }),
    );
    const terminal = await pairedTerminal(test.app, store.token);
    /**
     * Signs a new person in (a code to their phone, or their password) with `headers`: their session and its
     * step-up (a person each: a phone gets 3 codes in 10 minutes).
     */
    const signInWith = async (headers: Record<string, string>, by: 'code' | 'password' = 'code') => {
      const phone = uniquePhone();
      const person = await registerUser(test.app, test.database, { phone });
      let credentials: object = { phone, password: person.password };
      if (by === 'code') {
        const sent = await post('/api/send-sms-otp', { phone, purpose: 'login' }, {});
        expect(sent.statusCode, sent.body).toBe(200);
        credentials = { phone, otp: await lastCode(test.database, phone) };
      }
      const signedIn = await post('/api/auth/login', credentials, headers);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const token = signedIn.json().token as string;
      const status = (await get('/Palm/step-up/palm_enrol', bearer(token))).json();
      return { token, verified: status.verified as boolean };
    };

    // Not without a kiosk: no device, a store's terminal, or a password on the kiosk.
    expect((await signInWith({})).verified).toBe(false);
    expect((await signInWith({ 'x-hasta-device': terminal.token })).verified).toBe(false);
    expect((await signInWith({ 'x-hasta-device': kiosk.token }, 'password')).verified).toBe(false);
    expect((await signInWith({ 'x-hasta-device': 'not-a-device' })).verified).toBe(false);

    // Attack: someone who reads the person's email but not their phone signs in on the kiosk with an email
    // code. The step-up's code would have gone to the phone, so this is no step-up.
    const phone = uniquePhone();
    const both = await registerUser(test.app, test.database, { phone });
    const email = `both-${phone.slice(-9)}@example.test`;
    await test.database.db.updateTable('users').set({ email }).where('id', '=', both.user.id).execute();
    expect((await post('/api/email-otp/send', { email, purpose: 'login' }, {})).statusCode).toBe(200);
    const byEmail = await post(
      '/api/auth/login',
      { email, otp: await lastCode(test.database, email) },
      { 'x-hasta-device': kiosk.token },
    );
    expect(byEmail.statusCode, byEmail.body).toBe(200);
    const emailStepUp = await get('/Palm/step-up/palm_enrol', bearer(byEmail.json().token as string));
    expect(emailStepUp.json().verified).toBe(false);

    // On the kiosk, the sign-in code is the step-up: the palm is registered with no second code.
    const onKiosk = await signInWith({ 'x-hasta-device': kiosk.token });
    expect(onKiosk.verified).toBe(true);
    const scan = palms.freshScan(palms.newIdentity());
    const enrolled = await post(
      '/Palm/register',
      {
        which_hand: 'right',
        consent: true,
        scan,
        ...(await signedScan(test.app, kiosk, { purpose: 'enrol' }, scan.frames, onKiosk.token)),
      },
      kiosk.headers(onKiosk.token),
    );
    expect(enrolled.statusCode, enrolled.body).toBe(200);

    // A revoked kiosk's token gives nothing (the sign-in itself still works).
    expect((await post(`/api/devices/${kiosk.id}/revoke`, {}, bearer(adminToken))).statusCode).toBe(200);
    expect((await signInWith({ 'x-hasta-device': kiosk.token })).verified).toBe(false);
  });

  it('a terminal takes its store’s payments alone or beside its owner; the owner and the admin see them', async () => {
    const person = await registerUser(test.app, test.database);
    const browser = await pairThisBrowser(test.app, (await stepUp(test.app, person.token), person.token));
    const palm = palms.newIdentity();
    expect((await enrolOn(browser, person.token, palm)).statusCode).toBe(200);
    expect(
      (await post('/api/assignBalance', { userId: person.user.id, amount: 100 }, bearer(adminToken)))
        .statusCode,
    ).toBe(200);

    const till = await pairedTerminal(test.app, store.token);
    const pay = async (amount: number, headers: Record<string, string>, session?: string) => {
      const scan = palms.freshScan(palm);
      return post(
        '/api/transaction',
        {
          amount,
          scan,
          ...(await signedScan(test.app, till, { purpose: 'pay', amount }, scan.frames, session)),
        },
        headers,
      );
    };
    const alone = await pay(12, till.headers());
    expect(alone.statusCode).toBe(200);
    const beside = await pay(3, till.headers(store.token), store.token);
    expect(beside.statusCode).toBe(200);
    // Another person signed in beside the store's terminal: not theirs to take payments on.
    const stranger = await registerUser(test.app, test.database);
    const asked = await askChallenge(test.app, till, { purpose: 'pay', amount: 1 }, stranger.token);
    expect(asked.statusCode).toBe(403);
    const scan = palms.freshScan(palm);
    const signedAlone = await signedScan(test.app, till, { purpose: 'pay', amount: 1 }, scan.frames);
    const besideStranger = await post(
      '/api/transaction',
      { amount: 1, scan, ...signedAlone },
      till.headers(stranger.token),
    );
    expect(besideStranger.statusCode).toBe(403);

    const history = (await get('/api/devices/me/payments', till.headers())).json().payments as {
      txid: string;
      amount: string;
    }[];
    expect(history.map((payment) => payment.amount)).toEqual(['3.00', '12.00']);
    expect(history[1]!.txid).toBe(alone.json().transaction.id);
    const summary = (await get('/api/merchant/summary', bearer(store.token))).json();
    expect(summary.total_sales).toBe('15.00');
    const owned = (await devicesSeenBy(store.token)).find((device) => device.id === till.id);
    expect(owned).toMatchObject({ kind: 'terminal', payment_count: 2 });
    const byAdmin = await get(`/api/devices/${till.id}/payments`, bearer(adminToken));
    expect(byAdmin.json().payments).toHaveLength(2);
    // Someone else's device is not found, to list or to revoke.
    expect((await get(`/api/devices/${till.id}/payments`, bearer(person.token))).statusCode).toBe(404);
    expect((await post(`/api/devices/${till.id}/revoke`, {}, bearer(person.token))).statusCode).toBe(404);
  });

  it('a terminal alone finishes a payment waiting for the payer’s code that it took, and no other', async () => {
    const person = await registerUser(test.app, test.database);
    const browser = await pairThisBrowser(test.app, (await stepUp(test.app, person.token), person.token));
    const palm = palms.newIdentity();
    expect((await enrolOn(browser, person.token, palm)).statusCode).toBe(200);
    expect(
      (await post('/api/assignBalance', { userId: person.user.id, amount: 20_000 }, bearer(adminToken)))
        .statusCode,
    ).toBe(200);
    const till = await pairedTerminal(test.app, store.token);
    const otherTill = await pairedTerminal(test.app, store.token);
    const waitingAt = async (amount: number) => {
      const scan = palms.freshScan(palm);
      const answer = await post(
        '/api/transaction',
        { amount, scan, ...(await signedScan(test.app, till, { purpose: 'pay', amount }, scan.frames)) },
        till.headers(),
      );
      expect(answer.statusCode).toBe(202);
      return answer.json().confirmation.id as string;
    };

    const first = await waitingAt(6000);
    const code = await lastCode(test.database, person.user.email!);
    // Another terminal of the same store did not take it: not found there.
    const elsewhere = await post(
      '/Palm/authenticate/confirm',
      { payment_id: first, otp: code },
      otherTill.headers(),
    );
    expect(elsewhere.statusCode).toBe(404);
    const confirmed = await post(
      '/Palm/authenticate/confirm',
      { payment_id: first, otp: code },
      till.headers(),
    );
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().transaction.amount).toBe('6000.00');

    const second = await waitingAt(7000);
    expect(
      (await post('/Palm/authenticate/cancel', { payment_id: second }, otherTill.headers())).statusCode,
    ).toBe(404);
    expect((await post('/Palm/authenticate/cancel', { payment_id: second }, till.headers())).statusCode).toBe(
      200,
    );
    // A kiosk is no till, and no device at all is no one.
    const kiosk = await pairDevice(
      test.app,
      await createPairingCode(test.app, adminToken, { kind: 'kiosk', kioskId, name: 'Forum kiosk 2' }),
    );
    expect(
      (await post('/Palm/authenticate/cancel', { payment_id: second }, kiosk.headers())).statusCode,
    ).toBe(403);
    expect((await post('/Palm/authenticate/cancel', { payment_id: second }, {})).statusCode).toBe(401);
    // Paid the first only.
    expect((await get('/api/dashboard', bearer(person.token))).json().user.balance).toBe('14000.00');
  });

  it('the store owner’s own browser becomes a terminal of the store after their step-up (Accept Palm)', async () => {
    const refused = await test.app.inject({
      method: 'POST',
      url: '/api/devices/this-browser',
      headers: bearer(store.token),
      payload: {
        kind: 'terminal',
        public_key: (await pairedTerminal(test.app, store.token)).publicKey,
        name: 'Tab',
      },
    });
    expect(refused.statusCode).toBe(403);
    await stepUp(test.app, store.token);
    const tab = await pairThisBrowser(test.app, store.token, 'terminal');
    const me = (await get('/api/devices/me', tab.headers())).json().device;
    expect(me).toMatchObject({ kind: 'terminal', store_name: 'Device Kirana', owner_user_id: store.userId });
    // A person with no store gets no terminal.
    const person = await registerUser(test.app, test.database);
    await stepUp(test.app, person.token);
    await expect(pairThisBrowser(test.app, person.token, 'terminal')).rejects.toThrow(/403/);
  });

  it('the admin sees whose own browser a personal device is, by username; its owner and the device do not get it', async () => {
    const person = await registerUser(test.app, test.database, { username: 'asha_devices' });
    await stepUp(test.app, person.token);
    const phone = await pairThisBrowser(test.app, person.token);
    const inAdminList = (await get('/api/devices', bearer(adminToken)))
      .json()
      .devices.find((device: { id: string }) => device.id === phone.id);
    expect(inAdminList).toMatchObject({ kind: 'personal', owner_username: 'asha_devices' });
    const inOwnList = (await get('/api/devices', bearer(person.token))).json().devices;
    expect(inOwnList).toEqual([expect.objectContaining({ id: phone.id, owner_username: null })]);
    expect((await get('/api/devices/me', phone.headers())).json().device.owner_username).toBeNull();
    // An admin's revocation answers with it too; the owner's would not.
    const revoked = await post(`/api/devices/${phone.id}/revoke`, {}, bearer(adminToken));
    expect(revoked.json().device).toMatchObject({ owner_username: 'asha_devices' });
  });

  it('an admin-assisted registration records the admin’s device when the owner approves it', async () => {
    const person = await registerUser(test.app, test.database);
    await stepUp(test.app, adminToken);
    const adminBrowser = await pairThisBrowser(test.app, adminToken);
    const scan = palms.freshScan(palms.newIdentity());
    const started = await post(
      '/Palm/register',
      {
        which_hand: 'left',
        consent: true,
        scan,
        user_id: person.user.id,
        admin_mode: true,
        ...(await signedScan(test.app, adminBrowser, { purpose: 'enrol' }, scan.frames, adminToken)),
      },
      adminBrowser.headers(adminToken),
    );
    expect(started.statusCode).toBe(202);
    const otp = await lastCode(test.database, person.user.email!);
    const approved = await post(
      `/Palm/enrolment-requests/${started.json().request.id}/approve`,
      { otp },
      bearer(person.token),
    );
    expect(approved.statusCode).toBe(200);
    const seen = (await devicesSeenBy(adminToken)).find((device) => device.id === adminBrowser.id);
    expect(seen).toMatchObject({ kind: 'personal', enrolment_count: 1 });
  });
});
