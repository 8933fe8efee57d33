import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  lastCode,
  passCooldown,
  registerUser,
  uniqueEmail,
  uniquePhone,
  signInAsAdmin,
} from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

describe(`the wallet API on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token?: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    test.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { ...(token ? bearer(token) : {}), ...headers },
    });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  /** A user with a phone and a balance, as the admin's Send Value gives it. */
  async function fundedUser(rupees: number) {
    const phone = uniquePhone();
    const registered = await registerUser(test.app, test.database, { phone });
    if (rupees > 0) {
      const assigned = await call('POST', '/api/assignBalance', adminToken, {
        userId: registered.user.id,
        amount: rupees,
      });
      expect(assigned.statusCode).toBe(200);
    }
    return { ...registered, phone };
  }

  /** The seed's OTP step for a transfer: send to one's own phone, verify it (no purpose given). */
  async function verifyTransferOtp(token: string, phone: string) {
    await passCooldown(test.database, phone);
    expect((await call('POST', '/api/send-sms-otp', token, { phone })).statusCode).toBe(200);
    const otp = await lastCode(test.database, phone);
    const verified = await call('POST', '/api/verify-sms-otp', token, { phone, otp });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().purpose).toBe('transfer');
  }

  const balanceOf = async (token: string) =>
    (await call('GET', '/api/dashboard', token)).json().user.balance as string;

  it('lets an admin add value, and shows it on the dashboard', async () => {
    const { token, user } = await fundedUser(500);
    const dashboard = await call('GET', `/api/dashboard?userId=${user.id}`, token);
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.json().user).toMatchObject({
      id: user.id,
      balance: '500.00',
      balance_paise: '50000',
      palm_hash: null,
    });
    expect(dashboard.json().user.user_history[0]).toMatchObject({
      type: 'transaction',
      amount: '500.00',
      status: 'completed',
      sender: 'Hasta',
    });
    const asUser = await call('POST', '/api/assignBalance', token, { userId: user.id, amount: 1 });
    expect(asUser.statusCode).toBe(403);
  });

  it('sends money only after an OTP verified in this session, one verification per transfer', async () => {
    const sender = await fundedUser(1000);
    const receiver = await fundedUser(0);
    const body = {
      userId: sender.user.id,
      receiverEmail: '',
      receiverPhone: receiver.phone,
      amount: 250.5,
      transferMethod: 'phone_email',
    };

    const unverified = await call('POST', '/api/transfer', sender.token, body);
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().message).toBe(messages.transferVerificationRequired);

    await verifyTransferOtp(sender.token, sender.phone);
    const sent = await call('POST', '/api/transfer', sender.token, body);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      success: true,
      message: messages.moneySent,
      transaction: { amount: '250.50', status: 'completed', direction: 'sent' },
    });
    expect(await balanceOf(sender.token)).toBe('749.50');
    expect(await balanceOf(receiver.token)).toBe('250.50');

    expect((await call('POST', '/api/transfer', sender.token, body)).statusCode).toBe(403);
  });

  it('pays whoever the address names when the money moves, not a receiver remembered from before', async () => {
    const sender = await fundedUser(1000);
    const first = await fundedUser(0);
    const second = await fundedUser(0);
    const send = async (amount: number) => {
      // Past the OTP allowance of 3 sends in 10 minutes too: this test sends three.
      await test.database.db
        .updateTable('otp_events')
        .set({ created_at: new Date(Date.now() - 3_600_000) })
        .where('identifier', '=', sender.phone)
        .execute();
      expect(
        (await call('POST', '/api/send-sms-otp', sender.token, { phone: sender.phone })).statusCode,
      ).toBe(200);
      const otp = await lastCode(test.database, sender.phone);
      expect(
        (await call('POST', '/api/verify-sms-otp', sender.token, { phone: sender.phone, otp })).statusCode,
      ).toBe(200);
      return call('POST', '/api/transfer', sender.token, { receiverPhone: first.phone, amount });
    };
    expect((await send(10)).statusCode).toBe(200);
    expect(await balanceOf(first.token)).toBe('10.00');

    // The number passes to another user (the first changed theirs): the server's remembered receiver is stale.
    await test.database.db
      .updateTable('users')
      .set({ phone: uniquePhone() })
      .where('id', '=', first.user.id)
      .execute();
    await test.database.db
      .updateTable('users')
      .set({ phone: first.phone })
      .where('id', '=', second.user.id)
      .execute();
    const moved = await send(20);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().transaction).toMatchObject({ amount: '20.00', to_user_email: first.phone });
    expect(await balanceOf(first.token)).toBe('10.00');
    expect(await balanceOf(second.token)).toBe('20.00');
    expect(await balanceOf(sender.token)).toBe('970.00');

    // Nobody holds the number any more: the remembered receiver is not paid either.
    await test.database.db
      .updateTable('users')
      .set({ phone: uniquePhone() })
      .where('id', '=', second.user.id)
      .execute();
    const gone = await send(30);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(messages.receiverNotFound);
    expect(await balanceOf(second.token)).toBe('20.00');
    expect(await balanceOf(sender.token)).toBe('970.00');
  });

  it('re-checks the session inside the transfer, so a session ended after its last transfer cannot send', async () => {
    const sender = await fundedUser(100);
    const receiver = await fundedUser(0);
    const body = { receiverPhone: receiver.phone, amount: 10 };
    await verifyTransferOtp(sender.token, sender.phone);
    expect((await call('POST', '/api/transfer', sender.token, body)).statusCode).toBe(200);

    // A pending password change (set behind the session's back) stops the next transfer...
    await verifyTransferOtp(sender.token, sender.phone);
    await test.database.db
      .updateTable('users')
      .set({ must_change_password: true })
      .where('id', '=', sender.user.id)
      .execute();
    const pending = await call('POST', '/api/transfer', sender.token, body);
    expect(pending.statusCode).toBe(403);
    expect(pending.json().message).toBe(messages.passwordChangeRequired);
    await test.database.db
      .updateTable('users')
      .set({ must_change_password: false })
      .where('id', '=', sender.user.id)
      .execute();

    // ...and so does logging out, although the session was looked up moments ago.
    expect((await call('POST', '/api/auth/logout', sender.token)).statusCode).toBe(200);
    const ended = await call('POST', '/api/transfer', sender.token, body);
    expect(ended.statusCode).toBe(401);
    expect(await balanceOf(receiver.token)).toBe('10.00');
  });

  it('does not accept another session’s verification', async () => {
    const sender = await fundedUser(100);
    const receiver = await fundedUser(0);
    await verifyTransferOtp(sender.token, sender.phone);
    const otherSession = (
      await call('POST', '/api/auth/login', undefined, { phone: sender.phone, password: sender.password })
    ).json().token;
    const response = await call('POST', '/api/transfer', otherSession, {
      receiverPhone: receiver.phone,
      amount: 1,
    });
    expect(response.statusCode).toBe(403);
  });

  it('sends a transfer code only to the caller’s own phone or email', async () => {
    const sender = await fundedUser(100);
    const other = await fundedUser(0);
    await passCooldown(test.database, other.phone);
    const messagesTo = async (address: string) =>
      (
        await test.database.db
          .selectFrom('outbox_messages')
          .select('id')
          .where('to_address', '=', address)
          .execute()
      ).length;
    const before = await messagesTo(other.phone);
    const sms = await call('POST', '/api/send-sms-otp', sender.token, { phone: other.phone });
    expect(sms.statusCode).toBe(403);
    const email = await call('POST', '/api/email-otp/send', sender.token, {
      email: 'someone-else@wallet.test',
      purpose: 'transfer',
    });
    expect(email.statusCode).toBe(403);
    // Nothing reached the other person, and the sender still cannot send.
    expect(await messagesTo(other.phone)).toBe(before);
    expect(await messagesTo('someone-else@wallet.test')).toBe(0);
    const response = await call('POST', '/api/transfer', sender.token, {
      receiverPhone: other.phone,
      amount: 1,
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a send to one’s own email with its §5.10 message', async () => {
    const email = uniqueEmail('self');
    const sender = await registerUser(test.app, test.database, { email });
    await call('POST', '/api/assignBalance', adminToken, { userId: sender.user.id, amount: 10 });
    await passCooldown(test.database, email);
    expect((await call('POST', '/api/email-otp/send', sender.token, { email })).statusCode).toBe(200);
    const otp = await lastCode(test.database, email);
    expect((await call('POST', '/api/email-otp/verify', sender.token, { email, otp })).statusCode).toBe(200);
    const self = await call('POST', '/api/transfer', sender.token, {
      receiverEmail: email.toUpperCase(),
      amount: 1,
    });
    expect([self.statusCode, self.json().message]).toEqual([400, messages.selfSendEmail]);
    expect(await balanceOf(sender.token)).toBe('10.00');
  });

  it('replays a retried Idempotency-Key and refuses the key with another body', async () => {
    const sender = await fundedUser(100);
    const receiver = await fundedUser(0);
    await verifyTransferOtp(sender.token, sender.phone);
    const key = { 'idempotency-key': 'tap-1' };
    const first = await call(
      'POST',
      '/api/transfer',
      sender.token,
      { receiverPhone: receiver.phone, amount: 10 },
      key,
    );
    const retry = await call(
      'POST',
      '/api/transfer',
      sender.token,
      { receiverPhone: receiver.phone, amount: 10 },
      key,
    );
    expect(retry.statusCode).toBe(200);
    expect(retry.json().transaction.id).toBe(first.json().transaction.id);
    const changed = await call(
      'POST',
      '/api/transfer',
      sender.token,
      { receiverPhone: receiver.phone, amount: 11 },
      key,
    );
    expect(changed.statusCode).toBe(409);
    expect(await balanceOf(receiver.token)).toBe('10.00');
  });

  it.each([
    [{ amount: 5 }, 400, messages.receiverRequired],
    [{ receiverPhone: '+911', amount: 5 }, 400, messages.invalidPhone],
    [{ receiverEmail: 'nobody', amount: 5 }, 400, messages.invalidEmail],
    [{ receiverEmail: 'nobody@nowhere.in', amount: 5 }, 404, messages.receiverNotFound],
    [{ receiverPhone: 'RECEIVER', amount: 0 }, 400, messages.amountPositive],
    [{ receiverPhone: 'RECEIVER', amount: -3 }, 400, messages.amountPositive],
    [{ receiverPhone: 'RECEIVER', amount: 0.001 }, 400, messages.amountTooPrecise],
    [{ receiverPhone: 'RECEIVER', amount: 1e-7 }, 400, messages.amountTooPrecise],
    [{ receiverPhone: 'RECEIVER', amount: 1e12 }, 400, messages.balanceLimitExceeded],
    [{ receiverPhone: 'RECEIVER', amount: 1e21 }, 400, messages.balanceLimitExceeded],
    [{ receiverPhone: 'RECEIVER', amount: '5' }, 400, messages.amountRequired],
    [{ receiverPhone: 'SELF', amount: 5 }, 400, messages.selfSendPhone],
    [{ receiverPhone: 'RECEIVER', amount: 5000 }, 400, messages.insufficientFunds],
  ])('answers %j with %i and its message, moving nothing', async (payload, status, message) => {
    const sender = await fundedUser(100);
    const receiver = await fundedUser(0);
    await verifyTransferOtp(sender.token, sender.phone);
    const body = JSON.parse(
      JSON.stringify(payload).replace('RECEIVER', receiver.phone).replace('SELF', sender.phone),
    );
    const response = await call('POST', '/api/transfer', sender.token, body);
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toBe(message);
    expect(await balanceOf(sender.token)).toBe('100.00');
  });

  it('keeps each user to their own wallet', async () => {
    const alice = await fundedUser(10);
    const bob = await fundedUser(10);
    expect((await call('GET', `/api/dashboard?userId=${bob.user.id}`, alice.token)).statusCode).toBe(403);
    expect(
      (await call('GET', `/api/transaction/history?userId=${bob.user.id}`, alice.token)).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', '/api/transfer', alice.token, {
          userId: bob.user.id,
          receiverPhone: alice.phone,
          amount: 1,
        })
      ).statusCode,
    ).toBe(403);
    expect((await call('GET', `/api/dashboard?userId=${bob.user.id}`, adminToken)).statusCode).toBe(200);
    expect((await call('GET', '/api/dashboard')).statusCode).toBe(401);
  });

  it('lists history with both parties and direction', async () => {
    const sender = await fundedUser(100);
    const receiver = await fundedUser(0);
    await verifyTransferOtp(sender.token, sender.phone);
    await call('POST', '/api/transfer', sender.token, { receiverPhone: receiver.phone, amount: 42 });
    const history = (await call('GET', '/api/transaction/history', receiver.token)).json().transactions;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      amount: '42.00',
      direction: 'received',
      status: 'completed',
      from_user_email: sender.phone,
      to_user_email: receiver.phone,
    });
    // Once the log has sequenced it, the transfer's entry is its hash: on /history and on the dashboard.
    await test.app.transparencyLog.flush();
    const [logged] = (await call('GET', '/api/transaction/history', receiver.token)).json().transactions;
    expect(logged.blockchain_tx).toMatch(/^[0-9a-f]{64}$/);
    const [entry] = (await call('GET', '/api/dashboard', receiver.token)).json().user.user_history;
    expect(entry).toMatchObject({ type: 'transaction', txid: logged.id, tx: logged.blockchain_tx });
  });

  it('pages the dashboard history and /history: every entry once, newest first, only one’s own', async () => {
    const person = await fundedUser(0);
    const palmScan = () =>
      test.database.db
        .insertInto('palm_events')
        .values({
          id: crypto.randomUUID(),
          user_id: person.user.id,
          type: 'palm.scan',
          hand: 'left',
          status: 'Success',
          similarity: 50,
        })
        .execute();
    for (let rupees = 1; rupees <= 7; rupees += 1) {
      await call('POST', '/api/assignBalance', adminToken, { userId: person.user.id, amount: rupees });
      if (rupees % 3 === 0) await palmScan();
    }
    await palmScan();
    const get = async (url: string, token = person.token) => {
      const response = await call('GET', url, token);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const key = (entry: { type: string; txid: string | null; created_at: string }) =>
      `${entry.type}:${entry.txid ?? entry.created_at}`;

    const whole = await get('/api/dashboard/history?limit=200');
    expect(whole.next).toBeNull();
    expect(
      whole.user_history.map((e: { type: string }) => e.type).filter((t: string) => t === 'transaction'),
    ).toHaveLength(7);
    expect(whole.user_history).toHaveLength(10);
    expect((await get('/api/dashboard')).user).toMatchObject({ user_history_next: null });
    const paged: Array<{ type: string; txid: string | null; created_at: string }> = [];
    let before: string | null = '';
    for (let page = 0; before !== null; page += 1) {
      expect(page).toBeLessThan(5);
      const answer = await get(`/api/dashboard/history?limit=3${before ? `&before=${before}` : ''}`);
      expect(answer.user_history.length).toBeLessThanOrEqual(3);
      paged.push(...answer.user_history);
      before = answer.next;
    }
    expect(paged.map(key)).toEqual(whole.user_history.map(key));
    expect(new Set(paged.map(key)).size).toBe(10);

    const all = await get('/api/transaction/history');
    expect(all.next).toBeNull();
    expect(all.transactions.map((t: { amount: string }) => t.amount)).toEqual([
      '7.00',
      '6.00',
      '5.00',
      '4.00',
      '3.00',
      '2.00',
      '1.00',
    ]);
    const ids: string[] = [];
    before = '';
    for (let page = 0; before !== null; page += 1) {
      expect(page).toBeLessThan(5);
      const answer = await get(`/api/transaction/history?limit=2${before ? `&before=${before}` : ''}`);
      ids.push(...answer.transactions.map((t: { id: string }) => t.id));
      before = answer.next;
    }
    expect(ids).toEqual(all.transactions.map((t: { id: string }) => t.id));

    // Someone else's pages are not theirs to read; a cursor must be one the server gave.
    const other = await fundedUser(0);
    expect(
      (await call('GET', `/api/dashboard/history?userId=${person.user.id}`, other.token)).statusCode,
    ).toBe(403);
    expect(
      (await call('GET', `/api/dashboard/history?userId=${person.user.id}`, adminToken)).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/dashboard/history')).statusCode).toBe(401);
    expect(
      (await call('GET', `/api/transaction/history?userId=${person.user.id}`, other.token)).statusCode,
    ).toBe(403);
    for (const url of [
      '/api/dashboard/history?before=abc',
      '/api/dashboard/history?before=12',
      '/api/dashboard/history?before=99999999999999999999.1',
      '/api/dashboard/history?limit=0',
      '/api/transaction/history?before=1.2',
      '/api/transaction/history?limit=201',
    ]) {
      expect((await call('GET', url, person.token)).statusCode, url).toBe(400);
    }
    expect((await get('/api/transaction/history?before=999999999999999999')).transactions).toHaveLength(7);
  });

  it('lets an admin delete a transfer by reversing it, once, and never into an overdraft', async () => {
    const sender = await fundedUser(100);
    const receiver = await fundedUser(0);
    await verifyTransferOtp(sender.token, sender.phone);
    const txid = (
      await call('POST', '/api/transfer', sender.token, { receiverPhone: receiver.phone, amount: 60 })
    ).json().transaction.id;

    expect((await call('DELETE', `/api/transaction/${txid}`, sender.token)).statusCode).toBe(403);
    const listed = (await call('GET', '/api/transaction', adminToken)).json().transactions;
    expect(listed.map((t: { txid: string }) => t.txid)).toContain(txid);

    const deleted = await call('DELETE', `/api/transaction/${txid}`, adminToken);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe(messages.transactionDeleted);
    expect(await balanceOf(sender.token)).toBe('100.00');
    expect(await balanceOf(receiver.token)).toBe('0.00');
    expect(
      (await call('GET', '/api/transaction', adminToken))
        .json()
        .transactions.map((t: { txid: string }) => t.txid),
    ).not.toContain(txid);
    const all = (await call('GET', '/api/transaction?include_deleted=true', adminToken)).json().transactions;
    expect(all.find((t: { txid: string }) => t.txid === txid)?.status).toBe('reversed');
    expect((await call('DELETE', `/api/transaction/${txid}`, adminToken)).statusCode).toBe(409);

    // The receiver spent the money: reversing would overdraw them.
    await passCooldown(test.database, sender.phone);
    await verifyTransferOtp(sender.token, sender.phone);
    const second = (
      await call('POST', '/api/transfer', sender.token, { receiverPhone: receiver.phone, amount: 30 })
    ).json().transaction.id;
    await verifyTransferOtp(receiver.token, receiver.phone);
    expect(
      (await call('POST', '/api/transfer', receiver.token, { receiverPhone: sender.phone, amount: 30 }))
        .statusCode,
    ).toBe(200);
    const refused = await call('DELETE', `/api/transaction/${second}`, adminToken);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(messages.reversalWouldOverdraw);
  });
});
