import { messages } from '@hasta/contracts/messages';
import type { PalmScan } from '@hasta/contracts/palm';
import { extractFeatures } from '@hasta/palm/features';
import { createRng } from '@hasta/palm/random';
import { cropped, jpegRoundTrip, noisy, shifted } from '../../../bench/palm-replay-variants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { palmKeyFrom } from '../src/palm/palm-keys';
import { RECENT_SCAN_MAX_AGE_MS, RECENT_SCANS_KEPT, ReplayGuard } from '../src/palm/replay-guard';
import { indiaTimeText } from '../src/notices/notify-owner';
import { bearer, registerUser, signInAsAdmin, uniqueEmail, uniquePhone } from './support/auth-helpers';
import { injectScan } from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { framesOf, registerPalm } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * The replay attack (issue 21, item 4): whoever holds the frames of one scan of a palm (a photo, a scanner
 * that kept them, a copy off the wire) posts them again, as they are or slightly altered, and is paid again.
 * A live recapture is never as close to an earlier scan as such a copy: the server refuses it as a palm it
 * does not recognise, counts it as a failed scan, and tells the payer.
 */

const asScan = (frames: Uint8Array[]): PalmScan => ({
  frames: frames.map((f) => Buffer.from(f).toString('base64')),
  source: 'demo',
});

describe(`the palm replay guard on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const post = (url: string, token: string, payload: object, key?: string) =>
    injectScan(test.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...bearer(token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  const get = (url: string, token: string) => test.app.inject({ method: 'GET', url, headers: bearer(token) });
  const balanceOf = async (token: string) =>
    (await get('/api/dashboard', token)).json().user.balance as string;
  const pay = (receiverToken: string, frames: Uint8Array[], amount = 100, key?: string) =>
    post('/Palm/authenticate', receiverToken, { amount, scan: asScan(frames) }, key ?? crypto.randomUUID());
  const outboxTo = async (address: string) =>
    (
      await test.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(address)}` })
    ).json().messages as { body: string; subject: string | null }[];

  /** A person with palm `identity` enrolled (samples 0, 1, 2) and ₹`rupees` in their wallet. */
  async function payerWith(identity: number, rupees: number, contact: { phone?: string } = {}) {
    const payer = await registerUser(test.app, test.database, contact);
    const enrolled = await registerPalm(
      test.app,
      payer.token,
      'right',
      asScan(framesOf(identity, [0, 1, 2])),
    );
    expect(enrolled.statusCode).toBe(200);
    expect(
      (await post('/api/assignBalance', adminToken, { userId: payer.user.id, amount: rupees })).statusCode,
    ).toBe(200);
    return payer;
  }

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', PALM_NEW_ENROLMENT_HOLD_HOURS: '0', ...RAISED_PALM_RATE_LIMITS },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('refuses the same frames posted again under another key, as a palm it does not recognise', async () => {
    const payer = await payerWith(301, 1000);
    const receiver = await registerUser(test.app, test.database);
    const scan = framesOf(301, [10, 11, 12]);
    expect((await pay(receiver.token, scan, 100, 'first')).statusCode).toBe(200);
    // A retry under the same key is the same payment, not a replay.
    const retried = await pay(receiver.token, scan, 100, 'first');
    expect(retried.statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('900.00');

    const replayed = await pay(receiver.token, scan, 100, 'second');
    expect([replayed.statusCode, replayed.json().message]).toEqual([400, messages.palmNotRecognised]);
    expect(await balanceOf(payer.token)).toBe('900.00');
    // A fresh capture of the same palm still pays.
    expect((await pay(receiver.token, framesOf(301, [20, 21, 22]))).statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('800.00');
  });

  // [how the copy is altered, the palm (synthetic identity) it copies, the alteration of each frame]
  const altered: [string, number, (frame: Uint8Array, index: number) => Uint8Array][] = [
    ['re-encoded as JPEG at quality 90', 310, (f) => jpegRoundTrip(f, 90)],
    ['re-encoded as JPEG at quality 75', 311, (f) => jpegRoundTrip(f, 75)],
    ['shifted by 2 px with the edge repeated', 312, (f) => shifted(f, 2, -1)],
    ['cropped by 3 px and stretched back', 313, (f) => cropped(f, 3)],
    ['with added noise (σ = 3 grey levels)', 314, (f, i) => noisy(f, 3, createRng(77 + i))],
    ['shifted by 1 px and re-encoded as JPEG at quality 80', 315, (f) => jpegRoundTrip(shifted(f, 1, 1), 80)],
  ];
  it.each(altered)('refuses a replay %s', async (_name, identity, alter) => {
    const payer = await payerWith(identity, 1000);
    const receiver = await registerUser(test.app, test.database);
    const scan = framesOf(identity, [10, 11, 12]);
    expect((await pay(receiver.token, scan)).statusCode).toBe(200);
    const replayed = await pay(receiver.token, scan.map(alter));
    expect([replayed.statusCode, replayed.json().message]).toEqual([400, messages.palmNotRecognised]);
    expect(await balanceOf(payer.token)).toBe('900.00');
    expect((await pay(receiver.token, framesOf(identity, [13, 14, 15]))).statusCode).toBe(200);
    expect(await balanceOf(payer.token)).toBe('800.00');
  });

  it('refuses a replay of the enrolment’s frames, even the first time they are used to pay', async () => {
    const payer = await payerWith(320, 1000);
    const receiver = await registerUser(test.app, test.database);
    const enrolment = framesOf(320, [0, 1, 2]);
    for (const frames of [enrolment, enrolment.map((f) => jpegRoundTrip(f, 85))]) {
      const replayed = await pay(receiver.token, frames);
      expect([replayed.statusCode, replayed.json().message]).toEqual([400, messages.palmNotRecognised]);
    }
    expect(await balanceOf(payer.token)).toBe('1000.00');
  });

  it('refuses a replay through a store’s POST /api/transaction, and one above the palm limit', async () => {
    const phone = uniquePhone();
    const payer = await payerWith(330, 20000, { phone });
    const merchant = await approvedMerchant(test.app, test.database, adminToken, 'Replay Mart');
    const scan = framesOf(330, [10, 11, 12]);
    const atStore = (frames: Uint8Array[], amount: number) =>
      post('/api/transaction', merchant.token, { amount, scan: asScan(frames) }, crypto.randomUUID());
    expect((await atStore(scan, 40)).statusCode).toBe(200);
    const replayed = await atStore(
      scan.map((f) => jpegRoundTrip(f, 85)),
      40,
    );
    expect([replayed.statusCode, replayed.json().message]).toEqual([400, messages.palmNotRecognised]);
    // Above the palm limit the replay reserves nothing and sends the payer no code.
    const codes = async () => (await outboxTo(phone)).filter((m) => /\b\d{6}\b/.test(m.body)).length;
    const codesBefore = await codes();
    const big = await atStore(
      scan.map((f) => cropped(f, 2)),
      6000,
    );
    expect([big.statusCode, big.json().message]).toEqual([400, messages.palmNotRecognised]);
    expect(await codes()).toBe(codesBefore);
    expect(await balanceOf(payer.token)).toBe('19960.00');
    // A waiting payment's scan is remembered too: replaying it is refused.
    const waiting = await atStore(framesOf(330, [20, 21, 22]), 6000);
    expect(waiting.statusCode).toBe(202);
    const again = await atStore(framesOf(330, [20, 21, 22]), 6000);
    expect([again.statusCode, again.json().message]).toEqual([400, messages.palmNotRecognised]);
    expect((await atStore(framesOf(330, [23, 24, 25]), 30)).statusCode).toBe(200);
  });

  it('dates a notice in India time, as the payer reads it', () => {
    expect(indiaTimeText(new Date('2026-11-26T08:35:00Z'))).toBe('26 Nov 2026, 2:05 pm IST');
    expect(indiaTimeText(new Date('2026-01-04T20:00:00Z'))).toBe('5 Jan 2026, 1:30 am IST');
  });

  it('counts a refused replay as a failed scan of that receiver, and tells the payer', async () => {
    const email = uniqueEmail('payer');
    const payer = await registerUser(test.app, test.database, { email });
    expect(
      (await registerPalm(test.app, payer.token, 'left', asScan(framesOf(340, [0, 1, 2])))).statusCode,
    ).toBe(200);
    await post('/api/assignBalance', adminToken, { userId: payer.user.id, amount: 1000 });
    const receiver = await registerUser(test.app, test.database);
    const scan = framesOf(340, [10, 11, 12]);
    expect((await pay(receiver.token, scan)).statusCode).toBe(200);
    const before = (await outboxTo(email)).length;
    for (let i = 0; i < 5; i++) {
      const replayed = await pay(
        receiver.token,
        scan.map((f, k) => noisy(f, 2, createRng(1000 * i + k))),
      );
      expect([replayed.statusCode, replayed.json().message]).toEqual([400, messages.palmNotRecognised]);
    }
    // Five failures in 15 minutes: the receiver is slowed down, even with the payer's real palm.
    const limited = await pay(receiver.token, framesOf(340, [30, 31, 32]));
    expect([limited.statusCode, limited.json().message]).toEqual([429, messages.palmTooManyFailures]);
    expect(await balanceOf(payer.token)).toBe('900.00');

    const notices = (await outboxTo(email)).slice(0, (await outboxTo(email)).length - before);
    expect(notices).toHaveLength(5);
    for (const notice of notices) {
      expect(notice.body).toMatch(
        /^Hasta: a palm scan copying an earlier scan of your palm was refused on \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d{2} [ap]m IST\. Nothing was paid\. If this keeps happening, pause palm pay from your dashboard\.$/,
      );
      expect(notice.body).not.toContain(receiver.user.email);
    }
  });

  it('remembers a scan the ledger refused, so its copy cannot pay once the money is there', async () => {
    const payer = await payerWith(370, 50);
    const receiver = await registerUser(test.app, test.database);
    const scan = framesOf(370, [10, 11, 12]);
    const refused = await pay(receiver.token, scan, 100);
    expect([refused.statusCode, refused.json().message]).toEqual([400, messages.insufficientFunds]);
    await post('/api/assignBalance', adminToken, { userId: payer.user.id, amount: 1000 });
    const replayed = await pay(receiver.token, scan, 100);
    expect([replayed.statusCode, replayed.json().message]).toEqual([400, messages.palmNotRecognised]);
    expect(await balanceOf(payer.token)).toBe('1050.00');
  });

  it('lets only one of two copies sent at once pay', async () => {
    const payer = await payerWith(350, 1000);
    const receiver = await registerUser(test.app, test.database);
    const scan = framesOf(350, [10, 11, 12]);
    const answers = await Promise.all([pay(receiver.token, scan), pay(receiver.token, scan)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(await balanceOf(payer.token)).toBe('900.00');
  });

  it('keeps recent scans sealed: the newest 50 per person, none older than 30 days, none after erasure', async () => {
    const payer = await payerWith(360, 1000);
    const receiver = await registerUser(test.app, test.database);
    expect((await pay(receiver.token, framesOf(360, [10, 11, 12]))).statusCode).toBe(200);
    const rows = () =>
      test.database.db
        .selectFrom('palm_recent_scans')
        .selectAll()
        .where('user_id', '=', payer.user.id)
        .orderBy('created_at')
        .execute();
    const [remembered] = await rows();
    expect(remembered).toBeDefined();
    // Sealed: no template header ("HPT1") and no stretch of the template in the clear.
    expect(Buffer.from(remembered!.sealed_template).includes(Buffer.from('HPT1'))).toBe(false);

    // The limits, with a clock of the guard's own and templates of a key of the test's own.
    const key = palmKeyFrom('r'.repeat(40));
    const template = key.protector.enrol(extractFeatures(framesOf(360, [20])[0]!, 128));
    let now = Date.now();
    const guard = new ReplayGuard(test.database.db, { current: key, previous: undefined }, () => now);
    await test.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < RECENT_SCANS_KEPT + 5; i++) {
        now += 1000;
        await guard.remember(trx, payer.user.id, template);
      }
    });
    expect(await rows()).toHaveLength(RECENT_SCANS_KEPT);
    now += RECENT_SCAN_MAX_AGE_MS;
    await test.database.db.transaction().execute((trx) => guard.remember(trx, payer.user.id, template));
    expect((await rows()).map((row) => row.key_id)).toEqual([key.keyIdHex]);

    expect((await post('/api/consent/erase', payer.token, {})).statusCode).toBe(200);
    expect(await rows()).toHaveLength(0);
  });
});
