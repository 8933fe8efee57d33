import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { registerPalm, scanOf } from './support/palm-helpers';
import { gaussianBlurred } from '@hasta/palm/frame-blur';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Frames that are not a palm (issue 27): the scanner in the browser only takes a palm, and the server refuses
 * the rest whatever sends them. Chromium's fake camera (a green screen with a turning "pacman" disc, no hand)
 * cut to the grey guide box is two flat tones with a disc's edge: sharp and contrasted enough for the quality
 * gate, nothing of a palm. Such frames, a screen of one colour and random noise are refused with a 400 that
 * says no palm was seen, before any search: nothing is registered or paid, no failed scan is counted.
 */

const SIDE = 128;

/** Deterministic uniform numbers in [0, 1). */
function uniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Chromium's fake camera test pattern as the guide box cuts it: the grey of its green background (79) with
 * the turning disc (174) whose open sector is at `angle` radians, as measured from the fake camera itself.
 */
function testPattern(angle: number): Uint8Array {
  const frame = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y += 1) {
    for (let x = 0; x < SIDE; x += 1) {
      const r = Math.hypot(x - 64, y - 64);
      const a = Math.atan2(y - 64, x - 64) + Math.PI;
      frame[y * SIDE + x] = r < 52 && a > angle ? 174 : 79;
    }
  }
  return frame;
}

/**
 * Random noise blurred into a texture (grain σ 1.5 px) at a palm's contrast: sharp and contrasted enough for
 * the quality gate (raw noise it already refuses as blurred), with no dark lines.
 */
function noise(seed: number): Uint8Array {
  const next = uniforms(seed);
  const normal = () => {
    let sum = 0;
    for (let i = 0; i < 12; i += 1) sum += next();
    return sum - 6;
  };
  const raw = Uint8Array.from({ length: SIDE * SIDE }, () =>
    Math.min(255, Math.max(0, Math.round(128 + normal() * 60))),
  );
  const smooth = gaussianBlurred(raw, SIDE, 1.5);
  const spread = 60 / (2 * Math.sqrt(Math.PI) * 1.5);
  return Uint8Array.from(smooth, (v) =>
    Math.min(255, Math.max(0, Math.round(128 + ((v - 128) * 25) / spread + normal() * 3))),
  );
}

const asScan = (frames: Uint8Array[]): PalmScan => ({
  frames: frames.map((f) => Buffer.from(f).toString('base64')),
  source: 'camera',
});

const patternScan = (first: number) => asScan([0, 1, 2].map((k) => testPattern(first + 0.3 * k)));

describe(`frames that are not a palm, on ${testDatabaseKind}`, () => {
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

  it('/Palm/register refuses the fake camera’s test pattern and noise as no palm: nothing is registered', async () => {
    const person = await registerUser(test.app, test.database);
    for (const scan of [patternScan(1), asScan([noise(1), noise(2), noise(3)])]) {
      const refused = await registerPalm(test.app, person.token, 'right', scan);
      expect([refused.statusCode, refused.json().message]).toEqual([400, messages.palmScanNotPalm]);
    }
    const templates = await test.database.db
      .selectFrom('palm_templates')
      .select('id')
      .where('user_id', '=', person.user.id)
      .execute();
    expect(templates).toHaveLength(0);
    // A palm's frames register on the same account.
    expect((await registerPalm(test.app, person.token, 'right', scanOf(2701, [0, 1, 2]))).statusCode).toBe(
      200,
    );
  });

  it('/Palm/authenticate and the store’s /api/transaction refuse the test pattern before any search: nothing paid, no failed scan counted', async () => {
    const payer = await registerUser(test.app, test.database);
    const receiver = await registerUser(test.app, test.database);
    expect((await registerPalm(test.app, payer.token, 'left', scanOf(2702, [0, 1, 2]))).statusCode).toBe(200);
    expect(
      (await post('/api/assignBalance', adminToken, { userId: payer.user.id, amount: 100 })).statusCode,
    ).toBe(200);

    const refused = await post('/Palm/authenticate', receiver.token, { amount: 10, scan: patternScan(2) });
    expect([refused.statusCode, refused.json().message]).toEqual([400, messages.palmScanNotPalm]);
    const merchant = await approvedMerchant(test.app, test.database, adminToken, 'Pattern Mart');
    const atStore = await post('/api/transaction', merchant.token, { amount: 10, scan: patternScan(3) });
    expect([atStore.statusCode, atStore.json().message]).toEqual([400, messages.palmScanNotPalm]);
    expect(await balanceOf(payer.token)).toBe('100.00');
    expect(await scanFailures(receiver.user.id)).toHaveLength(0);
    expect(await scanFailures(merchant.userId)).toHaveLength(0);

    // The payer's own palm still pays.
    const paid = await post('/Palm/authenticate', receiver.token, {
      amount: 10,
      scan: scanOf(2702, [3, 4, 5]),
    });
    expect(paid.statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('90.00');
  });
});
