import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode, uniqueEmail, uniquePhone } from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * Issue 23 item 5, SMS pumping: anyone may ask for a code by SMS without signing in (POST /api/send-sms-otp,
 * the only route that texts an address the caller names), so a script could run up an SMS bill by
 * rotating numbers, foreign ones above all. SMS go only to the allowed country prefixes, within a budget per
 * client and a global one per hour; past it, a code goes by email where the account has one, else the
 * spec's "Too many OTP requests" text. A refused SMS sends nothing.
 */
describe(`SMS pumping on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let nowMs = Date.now();
  const clock = () => new Date(nowMs);

  const sendSms = (phone: string, from = '127.0.0.1') =>
    test.app.inject({
      method: 'POST',
      url: '/api/send-sms-otp',
      payload: { phone },
      remoteAddress: from,
    });
  const smsTo = async (phone: string) =>
    (
      await test.database.db
        .selectFrom('outbox_messages')
        .select(['channel', 'body'])
        .where('to_address', '=', phone)
        .execute()
    ).length;

  beforeAll(async () => {
    test = await buildTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '30000',
        SMS_BUDGET_PER_CLIENT_PER_HOUR: '3',
        SMS_BUDGET_GLOBAL_PER_HOUR: '5',
      },
      clock,
    });
  });
  afterAll(async () => {
    await test.close();
  });

  it('refuses codes by SMS to numbers outside the allowed prefixes, and sends nothing', async () => {
    for (const phone of ['+447700900123', '+12025550123', '+8613800138000']) {
      const refused = await sendSms(phone, '198.51.100.1');
      expect([refused.statusCode, refused.json().message]).toEqual([400, messages.smsCountryNotAllowed]);
      expect(await smsTo(phone)).toBe(0);
    }
  });

  it('keeps one client rotating numbers to its budget, and all clients to the global one', async () => {
    const first = Array.from({ length: 4 }, () => uniquePhone());
    for (const phone of first.slice(0, 3))
      expect((await sendSms(phone, '198.51.100.2')).statusCode).toBe(200);
    const overClient = await sendSms(first[3]!, '198.51.100.2');
    expect([overClient.statusCode, overClient.json().message]).toEqual([429, messages.tooManyOtpRequests]);
    expect(await smsTo(first[3]!)).toBe(0);

    // Another client has its own budget, until the global one (5 an hour) is spent.
    expect((await sendSms(uniquePhone(), '198.51.100.3')).statusCode).toBe(200);
    expect((await sendSms(uniquePhone(), '198.51.100.3')).statusCode).toBe(200);
    const late = uniquePhone();
    const overGlobal = await sendSms(late, '198.51.100.4');
    expect([overGlobal.statusCode, overGlobal.json().message]).toEqual([429, messages.tooManyOtpRequests]);
    expect(await smsTo(late)).toBe(0);
  });

  it('over budget, sends the code by email when the account has one, and it signs the person in', async () => {
    const phone = uniquePhone();
    const email = uniqueEmail('sms-fallback');
    await test.database.db.insertInto('users').values({ email, phone, username: 'Both' }).execute();

    const sent = await sendSms(phone, '198.51.100.5');
    expect([sent.statusCode, sent.json().message]).toEqual([200, messages.otpSentEmail]);
    expect(await smsTo(phone)).toBe(0);
    const otp = await lastCode(test.database, email);
    const signIn = await test.app.inject({ method: 'POST', url: '/api/auth/login', payload: { phone, otp } });
    expect(signIn.statusCode).toBe(200);
  });

  it('gives the budget back after an hour', async () => {
    nowMs += 61 * 60_000;
    const phone = uniquePhone();
    expect((await sendSms(phone, '198.51.100.2')).statusCode).toBe(200);
    expect(await smsTo(phone)).toBe(1);
  });
});
