import { DEVICE_HEADER } from '@hasta/contracts/devices';
import { messages } from '@hasta/contracts/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import {
  askChallenge,
  challengeFor,
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
 * Issue 22: a palm scan counts only from a paired device, over a single-use challenge the device signed
 * together with the frames, the purpose, the amount and the receiver. Each test is an attack on that; every
 * refused one must be refused before a frame is read (the palm engine's readFrames is never called).
 */
describe(`device attacks on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let nowMs = Date.now();
  const clock = () => new Date(nowMs);
  let adminToken: string;
  let store: ApprovedMerchant;
  let terminal!: SoftwareDevice;
  const palms = palmSupply(2200);
  let payer!: { token: string; id: string; palm: number };

  const inject = (url: string, payload: object, headers: Record<string, string>) =>
    test.app.inject({ method: 'POST', url, payload, headers });
  const balanceOf = async (token: string) =>
    (await test.app.inject({ method: 'GET', url: '/api/dashboard', headers: bearer(token) })).json().user
      .balance as string;
  const paymentsOf = async (device: SoftwareDevice) =>
    (
      await test.app.inject({
        method: 'GET',
        url: `/api/devices/${device.id}/payments`,
        headers: bearer(adminToken),
      })
    ).json().payments as unknown[];

  /** A person with a registered right hand (enrolled through their own browser, signed) and ₹500. */
  async function newPayer(): Promise<{ token: string; id: string; palm: number }> {
    const person = await registerUser(test.app, test.database);
    await stepUp(test.app, person.token);
    const browser = await pairThisBrowser(test.app, person.token);
    const palm = palms.newIdentity();
    const scan = palms.freshScan(palm);
    const enrolled = await inject(
      '/Palm/register',
      {
        which_hand: 'right',
        consent: true,
        scan,
        ...(await signedScan(test.app, browser, { purpose: 'enrol' }, scan.frames, person.token)),
      },
      browser.headers(person.token),
    );
    expect(enrolled.statusCode).toBe(200);
    const given = await inject(
      '/api/assignBalance',
      { userId: person.user.id, amount: 500 },
      bearer(adminToken),
    );
    expect(given.statusCode).toBe(200);
    return { token: person.token, id: person.user.id, palm };
  }

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', PALM_NEW_ENROLMENT_HOLD_HOURS: '0', ...RAISED_PALM_RATE_LIMITS },
      clock,
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    store = await approvedMerchant(test.app, test.database, adminToken, 'Device Attack Stores');
  });
  /** The store's terminal and a payer, made by the first test that needs them (pairing is under test too). */
  async function ready(): Promise<void> {
    if (!terminal) terminal = await pairedTerminal(test.app, store.token);
    if (!payer) payer = await newPayer();
  }
  afterEach(() => vi.restoreAllMocks());
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  /** Fails the test if the palm engine reads a frame: a refused scan must be refused before that. */
  function forbidFrameReading() {
    return vi.spyOn(test.app.palm, 'readFrames').mockImplementation(() => {
      throw new Error('a frame was read before the device and its challenge were checked');
    });
  }

  it('refuses a palm enrolment posted with no challenge, before reading a frame', async () => {
    const person = await registerUser(test.app, test.database);
    await stepUp(test.app, person.token);
    const read = forbidFrameReading();
    const refused = await inject(
      '/Palm/register',
      { which_hand: 'left', consent: true, scan: palms.freshScan(palms.newIdentity()) },
      bearer(person.token),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(messages.scanChallengeRequired);
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
    const state = await inject('/Palm/user/palm-registration-state', {}, bearer(person.token));
    expect(state.json()).toEqual({ left_hand_registered: false, right_hand_registered: false });
  });

  it('refuses palm payments posted with no challenge (store till and person receiving)', async () => {
    await ready();
    const before = await balanceOf(payer.token);
    const read = forbidFrameReading();
    const byStore = await inject(
      '/api/transaction',
      { amount: 10, scan: palms.freshScan(payer.palm) },
      {
        ...bearer(store.token),
        ...terminal.headers(),
      },
    );
    expect(byStore.statusCode).toBe(400);
    expect(byStore.json().message).toBe(messages.scanChallengeRequired);
    const receiver = await registerUser(test.app, test.database);
    const byPerson = await inject(
      '/Palm/authenticate',
      { amount: 10, scan: palms.freshScan(payer.palm) },
      bearer(receiver.token),
    );
    expect(byPerson.statusCode).toBe(400);
    expect(byPerson.json().message).toBe(messages.scanChallengeRequired);
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
    expect(await balanceOf(payer.token)).toBe(before);
  });

  it('refuses a scan from an unpaired device (no token, or a made-up one)', async () => {
    await ready();
    const scan = palms.freshScan(payer.palm);
    const challenge = await challengeFor(test.app, terminal, { purpose: 'pay', amount: 10 });
    const signature = await terminal.signScan(challenge, scan.frames);
    const read = forbidFrameReading();
    for (const headers of [
      bearer(store.token),
      { ...bearer(store.token), [DEVICE_HEADER]: 'made-up-token' },
    ]) {
      const refused = await inject(
        '/api/transaction',
        { amount: 10, scan, challenge: challenge.nonce, signature },
        headers,
      );
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(messages.deviceRequired);
    }
    const unknown = await test.app.inject({
      method: 'POST',
      url: '/Palm/challenge',
      headers: { [DEVICE_HEADER]: 'made-up-token' },
      payload: { purpose: 'pay', amount: 10 },
    });
    expect(unknown.statusCode).toBe(401);
    expect(read).not.toHaveBeenCalled();
  });

  it('takes a signed payment once and records the terminal; refuses the nonce used again', async () => {
    await ready();
    const before = await balanceOf(payer.token);
    const scan = palms.freshScan(payer.palm);
    const challenge = await challengeFor(test.app, terminal, { purpose: 'pay', amount: 10 });
    expect(challenge).toMatchObject({
      purpose: 'pay',
      amount: '10.00',
      receiver: `store:${store.merchantId}`,
    });
    const body = {
      amount: 10,
      scan,
      challenge: challenge.nonce,
      signature: await terminal.signScan(challenge, scan.frames),
    };
    const paid = await inject('/api/transaction', body, {
      ...terminal.headers(),
      'idempotency-key': 'attack-1',
    });
    expect(paid.statusCode).toBe(200);
    expect(await paymentsOf(terminal)).toHaveLength(1);

    // The same nonce again, as a new payment (another key, or none): refused before a frame is read.
    const read = forbidFrameReading();
    for (const key of [{ 'idempotency-key': 'attack-2' }, {}]) {
      const again = await inject('/api/transaction', body, { ...terminal.headers(), ...key });
      expect(again.statusCode).toBe(403);
      expect(again.json().message).toBe(messages.scanChallengeInvalid);
    }
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
    // A retry of the same request after a lost answer is answered once, not paid twice.
    const retried = await inject('/api/transaction', body, {
      ...terminal.headers(),
      'idempotency-key': 'attack-1',
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().transaction.id).toBe(paid.json().transaction.id);
    expect(paid.json().transaction.id).toEqual(expect.any(String));
    expect(await paymentsOf(terminal)).toHaveLength(1);
    expect(Number(await balanceOf(payer.token))).toBe(Number(before) - 10);
  });

  it('refuses an expired nonce', async () => {
    await ready();
    const scan = palms.freshScan(payer.palm);
    const challenge = await challengeFor(test.app, terminal, { purpose: 'pay', amount: 10 });
    nowMs += 61_000;
    const read = forbidFrameReading();
    const late = await inject(
      '/api/transaction',
      {
        amount: 10,
        scan,
        challenge: challenge.nonce,
        signature: await terminal.signScan(challenge, scan.frames),
      },
      terminal.headers(),
    );
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe(messages.scanChallengeExpired);
    expect(read).not.toHaveBeenCalled();
  });

  it('refuses a signature over other frames, another amount, another receiver or another purpose', async () => {
    await ready();
    const before = await balanceOf(payer.token);
    const scan = palms.freshScan(payer.palm);
    const other = palms.freshScan(payer.palm);
    const read = forbidFrameReading();
    const attempts: [string, (c: Awaited<ReturnType<typeof challengeFor>>) => Promise<object>][] = [
      ['other frames', async (c) => ({ amount: 10, signature: await terminal.signScan(c, other.frames) })],
      [
        'another amount signed',
        async (c) => ({ amount: 10, signature: await terminal.signScan(c, scan.frames, { amount: '1.00' }) }),
      ],
      [
        'another amount posted',
        async (c) => ({ amount: 400, signature: await terminal.signScan(c, scan.frames) }),
      ],
      [
        'another receiver',
        async (c) => ({
          amount: 10,
          signature: await terminal.signScan(c, scan.frames, { receiver: `user:${store.userId}` }),
        }),
      ],
      [
        'another purpose',
        async (c) => ({
          amount: 10,
          signature: await terminal.signScan(c, scan.frames, { purpose: 'receive' }),
        }),
      ],
      ['garbage', async () => ({ amount: 10, signature: 'AAAA' })],
    ];
    for (const [what, tamper] of attempts) {
      const challenge = await challengeFor(test.app, terminal, { purpose: 'pay', amount: 10 });
      const refused = await inject(
        '/api/transaction',
        { scan, challenge: challenge.nonce, ...(await tamper(challenge)) },
        terminal.headers(),
      );
      expect(refused.statusCode, what).toBe(403);
      expect(refused.json().message, what).toBe(messages.scanChallengeInvalid);
    }
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
    expect(await balanceOf(payer.token)).toBe(before);
  });

  it('refuses a signature by another device’s key, and one device using another’s nonce', async () => {
    await ready();
    const second = await pairedTerminal(test.app, store.token);
    const scan = palms.freshScan(payer.palm);
    const read = forbidFrameReading();
    const challenge = await challengeFor(test.app, terminal, { purpose: 'pay', amount: 10 });
    const byOtherKey = await inject(
      '/api/transaction',
      {
        amount: 10,
        scan,
        challenge: challenge.nonce,
        signature: await second.signScan(challenge, scan.frames),
      },
      terminal.headers(),
    );
    expect(byOtherKey.statusCode).toBe(403);
    expect(byOtherKey.json().message).toBe(messages.scanChallengeInvalid);
    const fresh = await challengeFor(test.app, terminal, { purpose: 'pay', amount: 10 });
    const otherDevicesNonce = await inject(
      '/api/transaction',
      { amount: 10, scan, challenge: fresh.nonce, signature: await second.signScan(fresh, scan.frames) },
      second.headers(),
    );
    expect(otherDevicesNonce.statusCode).toBe(403);
    expect(otherDevicesNonce.json().message).toBe(messages.scanChallengeInvalid);
    expect(read).not.toHaveBeenCalled();
  });

  it('refuses a revoked device at once: its challenges and its token', async () => {
    await ready();
    const till = await pairedTerminal(test.app, store.token);
    const scan = palms.freshScan(payer.palm);
    const challenge = await challengeFor(test.app, till, { purpose: 'pay', amount: 10 });
    const signature = await till.signScan(challenge, scan.frames);
    const revoked = await inject(`/api/devices/${till.id}/revoke`, {}, bearer(store.token));
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().device.revoked_at).not.toBeNull();
    const read = forbidFrameReading();
    const paid = await inject(
      '/api/transaction',
      { amount: 10, scan, challenge: challenge.nonce, signature },
      till.headers(),
    );
    expect(paid.statusCode).toBe(401);
    expect(paid.json().message).toBe(messages.deviceRevoked);
    const asked = await askChallenge(test.app, till, { purpose: 'pay', amount: 10 });
    expect(asked.statusCode).toBe(401);
    expect(asked.json().message).toBe(messages.deviceRevoked);
    const me = await test.app.inject({ method: 'GET', url: '/api/devices/me', headers: till.headers() });
    expect(me.statusCode).toBe(401);
    expect(read).not.toHaveBeenCalled();
  });

  it('refuses a kiosk asking to take a payment, and a terminal asking to enrol', async () => {
    await ready();
    const kioskId = (
      await test.database.db
        .insertInto('kiosks')
        .values({
          name: 'Attack Kiosk',
          lat: 12.9,
          lng: 77.6,
          address: 'MG Road',
          city: 'Bengaluru',
          pincode: '560001',
          status: 'active',
          type: 'mall',
          hours: '10-8',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const kiosk = await pairDevice(
      test.app,
      await createPairingCode(test.app, adminToken, { kind: 'kiosk', kioskId }),
    );
    const pay = await askChallenge(test.app, kiosk, { purpose: 'pay', amount: 10 });
    expect(pay.statusCode).toBe(403);
    expect(pay.json().message).toBe(messages.deviceNotAllowed);
    const enrol = await askChallenge(test.app, terminal, { purpose: 'enrol' }, store.token);
    expect(enrol.statusCode).toBe(403);
    expect(enrol.json().message).toBe(messages.deviceNotAllowed);
  });

  it('gives a device credential nothing but its own calls: no wallet, no admin, no store', async () => {
    await ready();
    const calls: [string, string, object?][] = [
      ['GET', '/api/dashboard'],
      ['GET', '/api/auth/session'],
      ['POST', '/api/transfer', { receiverEmail: 'someone@test.hasta.in', amount: 1 }],
      ['GET', '/api/merchant/summary'],
      ['GET', '/api/merchant/payments'],
      ['GET', '/api/auth/users'],
      ['POST', '/api/assignBalance', { userId: payer.id, amount: 1 }],
      ['GET', '/api/devices'],
      ['POST', '/api/devices/pairing-codes', { kind: 'terminal', name: 'Sneaky' }],
    ];
    for (const headers of [
      terminal.headers(),
      bearer(terminal.token),
      { cookie: `hasta_session=${terminal.token}` },
    ]) {
      for (const [method, url, payload] of calls) {
        const response = await test.app.inject({
          method: method as 'GET' | 'POST',
          url,
          headers,
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    const me = await test.app.inject({ method: 'GET', url: '/api/devices/me', headers: terminal.headers() });
    expect(me.statusCode).toBe(200);
    expect(me.json().device).toMatchObject({
      id: terminal.id,
      kind: 'terminal',
      store_name: 'Device Attack Stores',
    });
  });

  it('refuses another person’s own browser, and a pairing code used twice', async () => {
    await ready();
    const owner = await registerUser(test.app, test.database);
    await stepUp(test.app, owner.token);
    const browser = await pairThisBrowser(test.app, owner.token);
    const stranger = await registerUser(test.app, test.database);
    const asked = await askChallenge(test.app, browser, { purpose: 'receive', amount: 10 }, stranger.token);
    expect(asked.statusCode).toBe(403);
    expect(asked.json().message).toBe(messages.deviceNotAllowed);

    const code = await createPairingCode(test.app, store.token, { kind: 'terminal' });
    await pairDevice(test.app, code);
    await expect(pairDevice(test.app, code)).rejects.toThrow(/400/);
  });

  it('asks a step-up before a person’s browser becomes a device', async () => {
    await ready();
    const person = await registerUser(test.app, test.database);
    const refused = await test.app.inject({
      method: 'POST',
      url: '/api/devices/this-browser',
      headers: bearer(person.token),
      payload: { kind: 'personal', public_key: terminal.publicKey, name: 'Phone' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.stepUpRequired);
  });
});
