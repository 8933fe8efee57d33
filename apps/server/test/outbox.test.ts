import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxResponseSchema } from '@hasta/contracts/outbox';
import { hashPassword } from '../src/lib/password';
import { buildTestApp, type TestApp } from './support/test-app';
import { generateNoteKeys } from '@hasta/tlog/note';

describe('the dev outbox outside production', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp({ env: { NODE_ENV: 'development' } });
  });
  afterAll(async () => {
    await test.close();
  });

  it('keeps every sent message, newest first, with to, channel, subject, body and created_at', async () => {
    await test.messenger.send({
      channel: 'email',
      to: 'asha@example.in',
      subject: 'Your code',
      body: 'Code 123456',
    });
    await test.messenger.send({ channel: 'sms', to: '+919800000001', body: 'Hasta code 654321' });

    const response = await test.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(response.statusCode).toBe(200);
    const { messages } = outboxResponseSchema.parse(response.json());
    expect(messages.map(({ to, channel, subject, body }) => ({ to, channel, subject, body }))).toEqual([
      { to: '+919800000001', channel: 'sms', subject: null, body: 'Hasta code 654321' },
      { to: 'asha@example.in', channel: 'email', subject: 'Your code', body: 'Code 123456' },
    ]);
    expect(Number.isNaN(Date.parse(messages[0]!.created_at))).toBe(false);
  });

  it('filters by recipient', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ASHA@example.in' });
    const { messages } = outboxResponseSchema.parse(response.json());
    expect(messages.map((message) => message.to)).toEqual(['asha@example.in']);
  });

  it('shows the messages on a page, escaped', async () => {
    await test.messenger.send({
      channel: 'email',
      to: 'x@example.in',
      subject: '<b>hi</b>',
      body: '<script>alert(1)</script>',
    });
    const response = await test.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('<h1>Dev outbox</h1>');
    expect(response.body).toContain('Hasta code 654321');
    expect(response.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(response.body).not.toContain('<script>alert(1)</script>');
  });
});

describe('the dev outbox in production', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        COOKIE_SECRET: 'a'.repeat(40),
        PUBLIC_URL: 'https://hasta.example',
        WEBAUTHN_RP_ID: 'hasta.example',
        WEBAUTHN_ORIGINS: 'https://hasta.example',
        SMTP_HOST: '127.0.0.1',
        SMS_GATEWAY_URL: 'https://127.0.0.1:9/sms',
        LOG_SIGNING_KEY: generateNoteKeys('hasta.example/log').signerKey,
        LOG_SECRET: 'b'.repeat(40),
        PALM_KEY: 'c'.repeat(40),
      },
    });
  });
  afterAll(async () => {
    await test.close();
  });

  it('does not exist: both the JSON and the page answer 404', async () => {
    const json = await test.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(json.statusCode).toBe(404);
    const page = await test.app.inject({
      method: 'GET',
      url: '/dev/outbox',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(404);
  });

  it('marks the session cookie Secure (with httpOnly and SameSite=Lax)', async () => {
    await test.database.db
      .insertInto('users')
      .values({
        email: 'prod@hasta.test',
        username: 'Prod',
        password_hash: await hashPassword('production secret'),
      })
      .execute();
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'prod@hasta.test', password: 'production secret' },
    });
    expect(login.statusCode).toBe(200);
    // In production the session cookie carries the __Host- prefix (Secure, Path=/, no Domain: decision 030).
    expect(login.cookies.find((cookie) => cookie.name === '__Host-hasta_session')).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
  });

  it('sends through the real providers only, never the outbox', () => {
    expect(test.messenger.describe()).toEqual({ email: 'smtp', sms: 'sms-gateway' });
  });
});
