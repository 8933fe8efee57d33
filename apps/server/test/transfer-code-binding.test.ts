import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  lastCode,
  lastMessage,
  passCooldown,
  registerUser,
  signInAsAdmin,
  uniqueEmail,
  uniquePhone,
} from './support/auth-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 23, "codes bound to what they approve": a transfer code asked for an amount and a receiver names
 * them in its message and pays only that amount to that receiver. A code asked for without them (the seed's
 * client) pays one transfer, as before.
 */
describe(`transfer codes bound to their amount and receiver on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    test.app.inject({ method, url, ...(payload ? { payload } : {}), headers: bearer(token) });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  async function fundedUser(rupees: number) {
    const phone = uniquePhone();
    const email = uniqueEmail('bound');
    const registered = await registerUser(test.app, test.database, { phone });
    await test.database.db.updateTable('users').set({ email }).where('id', '=', registered.user.id).execute();
    if (rupees > 0) {
      const assigned = await call('POST', '/api/assignBalance', adminToken, {
        userId: registered.user.id,
        amount: rupees,
      });
      expect(assigned.statusCode).toBe(200);
    }
    return { ...registered, phone, email };
  }

  /** Asks for a transfer code by SMS with `binding` as extra fields, and verifies it. */
  async function verifyCode(sender: { token: string; phone: string }, binding: object) {
    await passCooldown(test.database, sender.phone);
    const sent = await call('POST', '/api/send-sms-otp', sender.token, { phone: sender.phone, ...binding });
    expect(sent.statusCode).toBe(200);
    const otp = await lastCode(test.database, sender.phone);
    const verified = await call('POST', '/api/verify-sms-otp', sender.token, { phone: sender.phone, otp });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().purpose).toBe('transfer');
  }

  const balanceOf = async (token: string) =>
    (await call('GET', '/api/dashboard', token)).json().user.balance as string;

  it('refuses a code verified for ₹100 to A when the transfer asks ₹1,000, and still pays the ₹100', async () => {
    const sender = await fundedUser(2000);
    const a = await fundedUser(0);
    await verifyCode(sender, { amount: 100, receiverPhone: a.phone });

    const more = await call('POST', '/api/transfer', sender.token, { receiverPhone: a.phone, amount: 1000 });
    expect(more.statusCode).toBe(403);
    expect(more.json().message).toBe(messages.transferVerificationRequired);
    expect(await balanceOf(a.token)).toBe('0.00');

    const exact = await call('POST', '/api/transfer', sender.token, { receiverPhone: a.phone, amount: 100 });
    expect(exact.statusCode).toBe(200);
    expect(await balanceOf(a.token)).toBe('100.00');
    expect(await balanceOf(sender.token)).toBe('1900.00');
  });

  it('refuses a code verified for A when the transfer goes to B, by phone or by email', async () => {
    const sender = await fundedUser(2000);
    const a = await fundedUser(0);
    const b = await fundedUser(0);
    await verifyCode(sender, { amount: 100, receiverEmail: a.email.toUpperCase() });

    const byPhone = await call('POST', '/api/transfer', sender.token, {
      receiverPhone: b.phone,
      amount: 100,
    });
    expect(byPhone.statusCode).toBe(403);
    const byEmail = await call('POST', '/api/transfer', sender.token, {
      receiverEmail: b.email,
      amount: 100,
    });
    expect(byEmail.statusCode).toBe(403);
    // An unknown address answers as any unverified transfer does.
    const unknown = await call('POST', '/api/transfer', sender.token, {
      receiverEmail: uniqueEmail('nobody'),
      amount: 100,
    });
    expect(unknown.statusCode).toBe(403);
    expect(await balanceOf(b.token)).toBe('0.00');

    // The receiver's address as the code named it (an email's case aside) is paid.
    const toA = await call('POST', '/api/transfer', sender.token, { receiverEmail: a.email, amount: 100 });
    expect(toA.statusCode).toBe(200);
    expect(await balanceOf(a.token)).toBe('100.00');
  });

  it('names the amount and the masked receiver in the code’s message', async () => {
    const sender = await fundedUser(2000);
    const a = await fundedUser(0);
    await passCooldown(test.database, sender.phone);
    const sent = await call('POST', '/api/send-sms-otp', sender.token, {
      phone: sender.phone,
      amount: 1250.5,
      receiverEmail: a.email,
    });
    expect(sent.statusCode).toBe(200);
    const { body } = await lastMessage(test.database, sender.phone);
    expect(body).toContain('to send ₹1,250.50 to bo•••@test.hasta.in');
    expect(body).not.toContain(a.email);

    await passCooldown(test.database, sender.email);
    await call('POST', '/api/email-otp/send', sender.token, {
      email: sender.email,
      amount: 7,
      receiverPhone: a.phone,
    });
    const mail = await lastMessage(test.database, sender.email);
    expect(mail.body).toContain(`to send ₹7.00 to ••••${a.phone.slice(-4)}`);
    expect(mail.body).not.toContain(a.phone);
  });

  it('pays each bound code once, only for what it names, whichever was verified first', async () => {
    const sender = await fundedUser(2000);
    const a = await fundedUser(0);
    await verifyCode(sender, { amount: 100, receiverPhone: a.phone });
    await verifyCode(sender, { amount: 300, receiverPhone: a.phone });
    const other = await call('POST', '/api/transfer', sender.token, { receiverPhone: a.phone, amount: 200 });
    expect(other.statusCode).toBe(403);
    const older = await call('POST', '/api/transfer', sender.token, { receiverPhone: a.phone, amount: 100 });
    expect(older.statusCode).toBe(200);
    const again = await call('POST', '/api/transfer', sender.token, { receiverPhone: a.phone, amount: 100 });
    expect(again.statusCode).toBe(403);
    const newer = await call('POST', '/api/transfer', sender.token, { receiverPhone: a.phone, amount: 300 });
    expect(newer.statusCode).toBe(200);
    expect(await balanceOf(a.token)).toBe('400.00');
  });

  it('keeps an unbound code (the seed’s client sends no amount or receiver) paying one transfer', async () => {
    const sender = await fundedUser(2000);
    const b = await fundedUser(0);
    await verifyCode(sender, {});
    const sent = await call('POST', '/api/transfer', sender.token, { receiverPhone: b.phone, amount: 1000 });
    expect(sent.statusCode).toBe(200);
    expect(await balanceOf(b.token)).toBe('1000.00');
  });

  it('refuses a code request that names an amount without a receiver, or a receiver without an amount', async () => {
    const sender = await fundedUser(0);
    const a = await fundedUser(0);
    await passCooldown(test.database, sender.phone);
    const noReceiver = await call('POST', '/api/send-sms-otp', sender.token, {
      phone: sender.phone,
      amount: 5,
    });
    expect(noReceiver.statusCode).toBe(400);
    const noAmount = await call('POST', '/api/send-sms-otp', sender.token, {
      phone: sender.phone,
      receiverPhone: a.phone,
    });
    expect(noAmount.statusCode).toBe(400);
  });
});
