import { randomUUID } from 'node:crypto';
import { base64ToBytes, bytesToHex } from '@hasta/tlog/encoding';
import { leafHash } from '@hasta/tlog/hashing';
import { parseEntry, verifyCommitment } from '@hasta/tlog/entry';
import { verifyReceipt, type Receipt } from '@hasta/tlog/receipt';
import { verifyConsistency } from '@hasta/tlog/verify';
import { openCheckpoint } from '@hasta/tlog/checkpoint';
import { parseVerifierKey } from '@hasta/tlog/note';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACCOUNT_ID } from '../src/ledger/ledger';
import { loadLogKeys, TransparencyLog } from '../src/tlog/transparency-log';
import { bearer, registerUser, uniquePhone } from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

describe(`the verifiable log on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let verifierKey: string;
  const get = (url: string, token?: string) =>
    test.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  beforeAll(async () => {
    // No background rounds: the test appends with flush() when it wants to.
    test = await buildTestApp({ env: { LOG_SEQUENCE_INTERVAL_MS: '0', RATE_LIMIT_PER_MINUTE: '30000' } });
    verifierKey = (await get('/api/log/key')).json().verifier_key;
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  async function person() {
    const registered = await registerUser(test.app, test.database, { phone: uniquePhone() });
    const account = await test.app.ledger.ensureUserAccount(registered.user.id);
    return { ...registered, account };
  }
  const pay = (from: string, to: string, amountPaise: bigint) =>
    test.app.ledger.transfer({
      id: randomUUID(),
      debitAccountId: from,
      creditAccountId: to,
      amountPaise,
      kind: from === SYSTEM_ACCOUNT_ID ? 'issuance' : 'transfer',
    });
  const receipt = async (id: string, token: string) => {
    const res = await get(`/api/receipts/${id}`, token);
    expect(res.statusCode).toBe(200);
    return res.json() as Receipt;
  };

  /** Asha is issued money, then pays Ravi `count` times: the transfers, issuance first. */
  async function issuedThenPaid(count: number) {
    const [asha, ravi] = [await person(), await person()];
    const payments = [await pay(SYSTEM_ACCOUNT_ID, asha.account, 1_000n)];
    for (let i = 0; i < count; i += 1) payments.push(await pay(asha.account, ravi.account, 1n));
    return { asha, payments };
  }
  /** Which of the transfers have a row in the log's table (entries, or events waiting). */
  const refsIn = async (table: 'tlog_entries' | 'tlog_outbox', transfers: { id: string }[]) =>
    (
      await test.database.db
        .selectFrom(table)
        .select('ref_id')
        .where(
          'ref_id',
          'in',
          transfers.map((transfer) => transfer.id),
        )
        .execute()
    ).map((row) => row.ref_id);

  it('logs every transfer and gives its parties a receipt anyone can verify offline', async () => {
    const [asha, ravi, meera] = [await person(), await person(), await person()];
    await pay(SYSTEM_ACCOUNT_ID, asha.account, 10_000n);
    const payment = await pay(asha.account, ravi.account, 2_500n);

    // Not sequenced yet: no receipt, a clear answer.
    const early = await get(`/api/receipts/${payment.id}`, asha.token);
    expect(early.statusCode).toBe(404);
    await test.app.transparencyLog.flush();

    const forAsha = await receipt(payment.id, asha.token);
    const checked = verifyReceipt(forAsha, verifierKey);
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.entry.type).toBe('payment');
      // ANCHOR=none (the default): the receipt says plainly that the log is not anchored on any chain.
      expect(checked.anchor).toEqual({ kind: 'none', status: 'not-anchored' });
    }
    expect(forAsha).toMatchObject({ anchor: null, anchor_status: 'not-anchored' });
    expect((await get('/api/log/key')).json()).toMatchObject({ anchor: null });
    expect((await receipt(payment.id, ravi.token)).index).toBe(forAsha.index);
    // History names the payment by its log entry: the hex leaf hash of the receipt's entry.
    const history = (await get('/api/transaction/history', asha.token)).json().transactions as Array<{
      id: string;
      blockchain_tx: string | null;
    }>;
    expect(history.find((t) => t.id === payment.id)?.blockchain_tx).toBe(
      bytesToHex(leafHash(new TextEncoder().encode(forAsha.entry))),
    );
    expect((await get(`/api/receipts/${payment.id}`, meera.token)).statusCode).toBe(404);
    expect((await get(`/api/receipts/${payment.id}`)).statusCode).toBe(401);

    // The entry names nobody: no user id, email or phone, only a pseudonymous subject.
    for (const secret of [
      asha.user.id,
      ravi.user.id,
      asha.user.phone!,
      ravi.user.phone!,
      asha.account,
      '2500',
    ])
      expect(forAsha.entry).not.toContain(secret);

    // Tampering is caught.
    const entry = JSON.parse(forAsha.entry) as Record<string, unknown>;
    const altered = { ...forAsha, entry: JSON.stringify({ ...entry, type: 'consent.granted' }) };
    expect(verifyReceipt(altered, verifierKey).ok).toBe(false);
    const otherIndex = { ...forAsha, index: forAsha.index === 0 ? 1 : 0 };
    expect(verifyReceipt(otherIndex, verifierKey).ok).toBe(false);
    const forged = { ...forAsha, checkpoint: forAsha.checkpoint.replace(/\n\n— .*/s, '\n\n— x AAAA\n') };
    expect(verifyReceipt(forged, verifierKey).ok).toBe(false);
  });

  it('signs only checkpoints consistent with the ones before, and proves it', async () => {
    const first = await test.app.inject({ method: 'GET', url: '/api/log/checkpoint' });
    expect(first.statusCode).toBe(200);
    const verifier = parseVerifierKey(verifierKey);
    const before = openCheckpoint(first.body, verifier);
    expect(before.ok).toBe(true);

    const [asha, ravi] = [await person(), await person()];
    await pay(SYSTEM_ACCOUNT_ID, asha.account, 5_000n);
    for (let i = 0; i < 5; i += 1) await pay(asha.account, ravi.account, 100n);
    await test.app.transparencyLog.flush();
    const after = openCheckpoint((await get('/api/log/checkpoint')).body, verifier);
    expect(after.ok).toBe(true);
    if (!before.ok || !after.ok) return;
    expect(after.value.size).toBe(before.value.size + 6);

    const proof = await get(
      `/api/log/proof/consistency?first=${before.value.size}&second=${after.value.size}`,
    );
    expect(proof.statusCode).toBe(200);
    const hashes = (proof.json().proof as string[]).map((h) => base64ToBytes(h)!);
    expect(
      verifyConsistency(before.value.size, after.value.size, hashes, before.value.root, after.value.root),
    ).toBe(true);
    // Beyond the latest checkpoint, or backwards: a clear 400.
    expect((await get(`/api/log/proof/consistency?first=2&second=${after.value.size + 1}`)).statusCode).toBe(
      400,
    );
    expect(
      (await get(`/api/log/proof/inclusion?index=${after.value.size}&size=${after.value.size}`)).statusCode,
    ).toBe(400);
    expect((await get('/api/log/proof/inclusion?index=abc&size=1')).statusCode).toBe(400);

    // The log's rows cannot be rewritten.
    await expect(
      sql`UPDATE tlog_entries SET entry = 'x' WHERE idx = 0`.execute(test.database.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM tlog_checkpoints`.execute(test.database.db)).rejects.toThrow(/append-only/);
  });

  it('keeps records openable by their key until erasure, and every proof valid after it', async () => {
    const [asha, ravi] = [await person(), await person()];
    await pay(SYSTEM_ACCOUNT_ID, asha.account, 1_000n);
    const payment = await pay(asha.account, ravi.account, 300n);
    const raviPays = await pay(ravi.account, asha.account, 100n);
    await test.app.transparencyLog.flush();
    const theirs = await receipt(payment.id, asha.token);

    const opened = await test.app.transparencyLog.openRecord(theirs.index);
    expect(opened).not.toBeNull();
    const entry = parseEntry(theirs.entry);
    expect(entry.ok).toBe(true);
    if (!entry.ok || !opened) return;
    expect(opened.record).toMatchObject({ transfer_id: payment.id, amount_paise: '300' });
    expect(verifyCommitment(opened.record, base64ToBytes(opened.salt)!, entry.value.commitment)).toBe(true);

    await test.app.transparencyLog.destroyDataKey(asha.user.id);
    expect(await test.app.transparencyLog.openRecord(theirs.index)).toBeNull();
    // The shredded user's receipt and everyone else's still verify.
    expect(verifyReceipt(await receipt(payment.id, asha.token), verifierKey).ok).toBe(true);
    const ravisReceipt = await receipt(raviPays.id, ravi.token);
    expect(verifyReceipt(ravisReceipt, verifierKey).ok).toBe(true);
    expect(await test.app.transparencyLog.openRecord(ravisReceipt.index)).not.toBeNull();
  });

  it('appends each event once when two sequencers make entries for the same events', async () => {
    const other = new TransparencyLog(test.database.db, await loadLogKeys(test.database.db, test.env));
    const { asha, payments } = await issuedThenPaid(20);
    // Both read the same waiting events and seal their entries before either appends them.
    const appended = await Promise.all([test.app.transparencyLog.sequence(), other.sequence()]);
    expect(appended[0] + appended[1]).toBe(payments.length);
    const logged = await refsIn('tlog_entries', payments);
    expect(logged.sort()).toEqual(payments.map((payment) => payment.id).sort());
    for (const payment of payments)
      expect(verifyReceipt(await receipt(payment.id, asha.token), verifierKey).ok).toBe(true);
  });

  it('appends at most a round of events at a time, and everything waiting when flushed', async () => {
    const keys = await loadLogKeys(test.database.db, test.env);
    const small = new TransparencyLog(test.database.db, keys, { anchoring: 'none', entriesPerRound: 4 });
    expect(
      () => new TransparencyLog(test.database.db, keys, { anchoring: 'none', entriesPerRound: 0 }),
    ).toThrow(RangeError);
    const { asha, payments } = await issuedThenPaid(9);
    expect(await small.sequence()).toBe(4);
    await small.flush();
    expect(await refsIn('tlog_outbox', payments)).toEqual([]);
    for (const payment of payments)
      expect(verifyReceipt(await receipt(payment.id, asha.token), verifierKey).ok).toBe(true);
  });

  it('picks up where it left off after a restart, with the same keys', async () => {
    const again = new TransparencyLog(test.database.db, await loadLogKeys(test.database.db, test.env));
    expect(again.keys.verifierKey).toBe(verifierKey);
    const [asha, ravi] = [await person(), await person()];
    await pay(SYSTEM_ACCOUNT_ID, asha.account, 1_000n);
    const payment = await pay(asha.account, ravi.account, 1n);
    await again.flush();
    expect(verifyReceipt(await receipt(payment.id, asha.token), verifierKey).ok).toBe(true);
  });
});
