import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { framesOf, registerPalm } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';
import { gaussianBlurred } from '@hasta/palm/frame-blur';

/**
 * The capture quality gate on the server (issue 26): the browser judges every frame for the person, and the
 * server checks the picture of every frame it receives again (exposure, contrast, sharpness). A scan with a
 * frame that fails is refused with what to fix, changes nothing, and does not count as a scan that
 * recognised nobody; synthetic 'medium' frames (what the demo and the tests send) still register and pay.
 */

const SIDE = 128;

const asScan = (frames: Uint8Array[]): PalmScan => ({
  frames: frames.map((f) => Buffer.from(f).toString('base64')),
  source: 'demo',
});

/** A defocused frame: Gaussian blur of σ `sigma_px` (edges clamped). */
const blurred = (frame: Uint8Array, sigma_px: number): Uint8Array => gaussianBlurred(frame, SIDE, sigma_px);

/** The frame in poor light: its mean grey brought down to `mean`. */
function darkened(frame: Uint8Array, mean: number): Uint8Array {
  const current = frame.reduce((a, b) => a + b, 0) / frame.length;
  return Uint8Array.from(frame, (v) => Math.round((v * mean) / current));
}

/** The frame washed out: pushed towards white, little contrast left. */
const washedOut = (frame: Uint8Array) => Uint8Array.from(frame, (v) => Math.round(255 - (255 - v) * 0.2));

describe(`the palm quality gate on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const post = (url: string, token: string, payload: object) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...bearer(token), 'idempotency-key': crypto.randomUUID() },
    });
  const balanceOf = async (token: string) =>
    (await test.app.inject({ method: 'GET', url: '/api/dashboard', headers: bearer(token) })).json().user
      .balance as string;
  const registrationState = async (token: string) =>
    (await post('/Palm/user/palm-registration-state', token, {})).json();
  const scanFailures = (receiverId: string) =>
    test.database.db
      .selectFrom('palm_scan_failures')
      .select('id')
      .where('receiver_user_id', '=', receiverId)
      .execute();

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', PALM_NEW_ENROLMENT_HOLD_HOURS: '0', ...RAISED_PALM_RATE_LIMITS },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('refuses a registration with a blurred, a dark or a washed-out frame, says what to fix, registers nothing', async () => {
    const person = await registerUser(test.app, test.database);
    const [first, second, third] = framesOf(610, [0, 1, 2]) as [Uint8Array, Uint8Array, Uint8Array];
    const cases: [Uint8Array[], string][] = [
      [[first, blurred(second, 3), third], messages.palmScanBlurred],
      [[blurred(first, 3), blurred(second, 3), blurred(third, 3)], messages.palmScanBlurred],
      [[darkened(first, 30), second, third], messages.palmScanDark],
      [[first, second, washedOut(third)], messages.palmScanBright],
    ];
    for (const [frames, message] of cases) {
      const refused = await registerPalm(test.app, person.token, 'right', asScan(frames));
      expect([refused.statusCode, refused.json().message]).toEqual([400, message]);
    }
    expect(await registrationState(person.token)).toEqual({
      left_hand_registered: false,
      right_hand_registered: false,
    });
    const templates = await test.database.db
      .selectFrom('palm_templates')
      .select('id')
      .where('user_id', '=', person.user.id)
      .execute();
    expect(templates).toHaveLength(0);

    // The same palm's sharp, well-lit frames register.
    const registered = await registerPalm(test.app, person.token, 'right', asScan([first, second, third]));
    expect(registered.statusCode).toBe(200);
    expect(await registrationState(person.token)).toEqual({
      left_hand_registered: false,
      right_hand_registered: true,
    });
  });

  it('refuses a payment scan that is blurred or dark before any search: nothing paid, no failed scan counted', async () => {
    const payer = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    expect(
      (await registerPalm(test.app, payer.token, 'left', asScan(framesOf(620, [0, 1, 2])))).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/assignBalance', adminToken, { userId: payer.user.id, amount: 100 })).statusCode,
    ).toBe(200);

    const scan = framesOf(620, [3, 4, 5]);
    const blurredScan = scan.map((frame) => blurred(frame, 3));
    const darkScan = scan.map((frame) => darkened(frame, 30));
    for (const [frames, message] of [
      [blurredScan, messages.palmScanBlurred],
      [darkScan, messages.palmScanDark],
    ] as const) {
      const refused = await post('/Palm/authenticate', receiver.token, { amount: 10, scan: asScan(frames) });
      expect([refused.statusCode, refused.json().message]).toEqual([400, message]);
    }
    expect(await balanceOf(payer.token)).toBe('100.00');
    expect(await scanFailures(receiver.user.id)).toHaveLength(0);

    // At a merchant's store the same.
    const merchant = await approvedMerchant(test.app, test.database, adminToken, 'Quality Mart');
    const atStore = await post('/api/transaction', merchant.token, { amount: 10, scan: asScan(blurredScan) });
    expect([atStore.statusCode, atStore.json().message]).toEqual([400, messages.palmScanBlurred]);
    expect(await balanceOf(payer.token)).toBe('100.00');

    // The sharp frames of that hold pay.
    const paid = await post('/Palm/authenticate', receiver.token, { amount: 10, scan: asScan(scan) });
    expect(paid.statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('90.00');
    const stored = await post('/api/transaction', merchant.token, {
      amount: 5,
      scan: asScan(framesOf(620, [6, 7, 8])),
    });
    expect(stored.statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('85.00');
  });
});
