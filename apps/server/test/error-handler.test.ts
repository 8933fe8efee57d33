import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DatabaseUnavailableError } from '../src/db/errors';
import { AppError } from '../src/lib/app-error';
import { buildTestApp, type TestApp } from './support/test-app';

/** How the database says it cannot take a request now: no writable host, a connection lost, a standby. */
const DATABASE_UNAVAILABLE: Array<[string, Error]> = [
  ['no-writable-host', new DatabaseUnavailableError(['10.0.0.1:5432 unreachable', '10.0.0.2:5432 standby'])],
  ['terminated', new Error('Connection terminated unexpectedly')],
  ['refused', Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  [
    'admin-shutdown',
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  ],
  [
    'read-only',
    Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
  ],
  ['pool-exhausted', new Error('timeout exceeded when trying to connect')],
];

describe('the error handler', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const app = test.app;
    app.post(
      '/api/test/validated',
      {
        schema: {
          body: z.object({
            email: z.email(messages.invalidEmail),
            amount: z.number({ error: messages.amountRequired }),
          }),
        },
        config: { rateLimit: false },
      },
      async () => ({ ok: true }),
    );
    app.get('/api/test/app-error', { config: { rateLimit: false } }, async () => {
      throw AppError.of('CONFLICT', 'waitlistFailed');
    });
    app.get('/api/test/crash', { config: { rateLimit: false } }, async () => {
      throw new Error('database password is hunter2 at /srv/secret.ts:42');
    });
    for (const [name, error] of DATABASE_UNAVAILABLE) {
      app.get(`/api/test/database/${name}`, { config: { rateLimit: false } }, async () => {
        throw error;
      });
    }
    app.get('/api/test/limited', async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(async () => {
    await test.close();
  });

  it.each(DATABASE_UNAVAILABLE.map(([name]) => name))(
    'answers a database that cannot take the request now (%s) with 503 and Retry-After, never 500, revealing nothing',
    async (name) => {
      const response = await test.app.inject({ method: 'GET', url: `/api/test/database/${name}` });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.json()).toEqual({
        code: 'UNAVAILABLE',
        error: messages.internal,
        message: messages.internal,
      });
    },
  );

  it('answers an AppError with its status and catalogue message in both fields', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'CONFLICT',
      error: messages.waitlistFailed,
      message: messages.waitlistFailed,
    });
  });

  it('answers bad input with 400 and the contract message, listing each problem', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/test/validated',
      payload: { email: 'not-an-email' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toBe(messages.invalidEmail);
    expect(body.error).toBe(messages.invalidEmail);
    expect(body.issues).toEqual([
      { path: 'email', message: messages.invalidEmail },
      { path: 'amount', message: messages.amountRequired },
    ]);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/test/validated',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', message: messages.invalidRequest });
  });

  it('answers an oversized body with a 413 client error', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/test/validated',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.in', amount: 1, pad: 'x'.repeat(100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('hides a thrown error behind a generic 500 and logs the detail', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 'INTERNAL',
      error: messages.internal,
      message: messages.internal,
    });
    expect(response.body).not.toMatch(/hunter2|secret\.ts|stack|at /);
    expect(test.logs()).toContain('database password is hunter2');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: 'NOT_FOUND',
      error: messages.notFound,
      message: messages.notFound,
    });
  });

  it('limits each client to the configured requests per minute on the API', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      statuses.push((await test.app.inject({ method: 'GET', url: '/api/test/limited' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await test.app.inject({ method: 'GET', url: '/api/test/limited' });
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: messages.rateLimited });
    // Another client is not affected.
    const other = await test.app.inject({
      method: 'GET',
      url: '/api/test/limited',
      remoteAddress: '10.9.8.7',
    });
    expect(other.statusCode).toBe(200);
  });
});
