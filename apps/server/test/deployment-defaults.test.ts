import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { generateNoteKeys } from '@hasta/tlog/note';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import { EnvError, parseEnv } from '../src/env';
import { fastifyTrustProxy } from '../src/lib/trust-proxy';
import { createMessenger } from '../src/messaging/create-messenger';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import {
  buildTestApp,
  createTestDatabase,
  testDatabaseKind,
  type TestApp,
  type TestDatabase,
} from './support/test-app';

/**
 * Deployment defaults (issue 23, item 4), attacked as a stranger would: the dev outbox read from another
 * machine, a production start with demo data or plain-text providers, and X-Forwarded-For forged through a
 * proxy to walk past a per-client limit.
 */

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A production environment that starts: every refusal below changes one thing in it. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  COOKIE_SECRET: 'a'.repeat(40),
  PUBLIC_URL: 'https://hasta.example',
  WEBAUTHN_RP_ID: 'hasta.example',
  WEBAUTHN_ORIGINS: 'https://hasta.example',
  SMTP_HOST: 'smtp.hasta.example',
  SMS_GATEWAY_URL: 'https://sms.hasta.example/send',
  LOG_SIGNING_KEY: generateNoteKeys('hasta.example/log').signerKey,
  LOG_SECRET: 'b'.repeat(40),
  PALM_KEY: 'c'.repeat(40),
};

function refusal(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`started with ${JSON.stringify(source)}`);
}

function without(key: string): Record<string, string> {
  const copy = { ...PRODUCTION };
  delete copy[key];
  return copy;
}

const STRANGER = '203.0.113.9';

describe(`the dev outbox outside production on ${testDatabaseKind}`, () => {
  for (const nodeEnv of ['test', 'development', 'unset'] as const) {
    describe(`NODE_ENV ${nodeEnv}`, () => {
      let test: TestApp;
      beforeAll(async () => {
        // An empty value is unset: NODE_ENV then defaults to development, as a forgetful deployment has it.
        test = await buildTestApp({ env: { NODE_ENV: nodeEnv === 'unset' ? '' : nodeEnv } });
        await test.messenger.send({ channel: 'sms', to: '+919800000077', body: 'Hasta code 112233' });
      });
      afterAll(async () => {
        await test.close();
      });

      it('refuses the JSON and the page to a client on another machine', async () => {
        for (const url of ['/api/dev/outbox', '/dev/outbox']) {
          const response = await test.app.inject({ method: 'GET', url, remoteAddress: STRANGER });
          expect(response.statusCode, `${url} ${response.body}`).toBe(401);
          expect(response.body).not.toContain('112233');
        }
      });

      it('refuses a loopback request that came through a proxy (X-Forwarded-For, Forwarded)', async () => {
        for (const headers of [
          { 'x-forwarded-for': STRANGER },
          { forwarded: `for=${STRANGER}` },
          { 'x-real-ip': STRANGER },
        ]) {
          const response = await test.app.inject({ method: 'GET', url: '/api/dev/outbox', headers });
          expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        }
      });

      it('refuses a signed-in person who is not an admin', async () => {
        const person = await registerUser(test.app, test.database);
        const response = await test.app.inject({
          method: 'GET',
          url: '/api/dev/outbox',
          headers: bearer(person.token),
          remoteAddress: STRANGER,
        });
        expect(response.statusCode).toBe(403);
      });

      it('answers the developer on this machine and an admin anywhere', async () => {
        const local = await test.app.inject({
          method: 'GET',
          url: `/api/dev/outbox?to=${encodeURIComponent('+919800000077')}`,
        });
        expect(local.statusCode).toBe(200);
        expect(local.body).toContain('112233');
        for (const remoteAddress of ['::1', '::ffff:127.0.0.1', '127.0.0.2']) {
          const loopback = await test.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress });
          expect(loopback.statusCode, remoteAddress).toBe(200);
        }
        const admin = await signInAsAdmin(test.app, test.database);
        const remote = await test.app.inject({
          method: 'GET',
          url: `/api/dev/outbox?to=${encodeURIComponent('+919800000077')}`,
          headers: bearer(admin),
          remoteAddress: STRANGER,
        });
        expect(remote.statusCode).toBe(200);
        expect(remote.body).toContain('112233');
      });
    });
  }
});

describe('a production start refuses unsafe settings with one clear line', () => {
  it('starts with the complete production settings', () => {
    expect(parseEnv(PRODUCTION).NODE_ENV).toBe('production');
  });

  it('refuses demo seeding (its password is public)', () => {
    expect(refusal({ ...PRODUCTION, SEED_DEMO: '1' })).toMatch(/SEED_DEMO cannot be on in production/);
    expect(refusal({ ...PRODUCTION, SEED_DEMO: 'true' })).toMatch(/SEED_DEMO/);
    expect(parseEnv({ ...PRODUCTION, SEED_DEMO: '0' }).SEED_DEMO).toBe(false);
  });

  it('refuses an SMS gateway over plain http://', () => {
    expect(refusal({ ...PRODUCTION, SMS_GATEWAY_URL: 'http://sms.hasta.example/send' })).toMatch(
      /SMS_GATEWAY_URL must be an https:\/\/ URL in production/,
    );
  });

  it('refuses SMTP without TLS', () => {
    expect(refusal({ ...PRODUCTION, SMTP_REQUIRE_TLS: '0' })).toMatch(
      /SMTP_REQUIRE_TLS cannot be off in production unless SMTP_SECURE=1/,
    );
    // Implicit TLS (port 465) is TLS from the first byte: STARTTLS is then moot.
    expect(parseEnv({ ...PRODUCTION, SMTP_SECURE: '1', SMTP_PORT: '465' }).SMTP_SECURE).toBe(true);
  });

  it.each([
    'COOKIE_SECRET',
    'LOG_SIGNING_KEY',
    'LOG_SECRET',
    'PALM_KEY',
    'PUBLIC_URL',
    'SMTP_HOST',
    'SMS_GATEWAY_URL',
    'WEBAUTHN_RP_ID',
    'WEBAUTHN_ORIGINS',
  ])('refuses a missing %s', (key) => {
    expect(refusal(without(key))).toMatch(
      new RegExp(`^Invalid environment: ${key} is required in production$`),
    );
  });

  it('refuses passkeys off, an http:// passkey origin, or one outside the relying party (issue 23)', () => {
    expect(refusal({ ...PRODUCTION, PASSKEY_SECOND_FACTOR: 'off' })).toMatch(
      /^Invalid environment: PASSKEY_SECOND_FACTOR cannot be off in production/,
    );
    expect(refusal({ ...PRODUCTION, WEBAUTHN_ORIGINS: 'http://hasta.example' })).toMatch(
      /^Invalid environment: WEBAUTHN_ORIGINS must be https:\/\/ origins in production$/,
    );
    expect(refusal({ ...PRODUCTION, WEBAUTHN_ORIGINS: 'https://evil.example' })).toMatch(
      /WEBAUTHN_ORIGINS must be on WEBAUTHN_RP_ID \(hasta.example\)/,
    );
    expect(refusal({ ...PRODUCTION, WEBAUTHN_RP_ID: '10.0.0.1' })).toMatch(
      /WEBAUTHN_RP_ID must be a domain name/,
    );
    // Outside production, localhost on the server's port and the web dev servers, and passkeys may be off.
    expect(parseEnv({ PORT: '4321', PASSKEY_SECOND_FACTOR: 'off' })).toMatchObject({
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: ['http://localhost:4321', 'http://localhost:5173', 'http://localhost:4173'],
      PASSKEY_SECOND_FACTOR: 'off',
    });
  });

  it('refuses TRUST_PROXY as a boolean, saying what to write', () => {
    for (const value of ['true', 'yes', 'on']) {
      expect(refusal({ ...PRODUCTION, TRUST_PROXY: value })).toMatch(
        /TRUST_PROXY must be the number of proxies in front of the server \(1 for one\) or their addresses/,
      );
    }
  });

  it('refuses TRUST_PROXY lists with something that is not an address', () => {
    expect(refusal({ ...PRODUCTION, TRUST_PROXY: '10.0.0.1,proxy.internal' })).toMatch(/TRUST_PROXY/);
    expect(refusal({ ...PRODUCTION, TRUST_PROXY: '10.0.0.0/33' })).toMatch(/TRUST_PROXY/);
    expect(refusal({ ...PRODUCTION, TRUST_PROXY: '-1' })).toMatch(/TRUST_PROXY/);
  });

  it('reads TRUST_PROXY as no proxy, a hop count, or addresses and CIDRs', () => {
    expect(parseEnv(PRODUCTION).TRUST_PROXY).toBe(false);
    expect(parseEnv({ ...PRODUCTION, TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ ...PRODUCTION, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ ...PRODUCTION, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(
      parseEnv({ ...PRODUCTION, TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1,fd00::/8' }).TRUST_PROXY,
    ).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8']);
    expect(parseEnv({ ...PRODUCTION, TRUST_PROXY: 'loopback,uniquelocal' }).TRUST_PROXY).toEqual([
      'loopback',
      'uniquelocal',
    ]);
  });

  it('stops the server at start: demo seeding in production exits 1 with that one line', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH, ...PRODUCTION, SEED_DEMO: '1', DATA_DIR: 'memory://', PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid environment: SEED_DEMO cannot be on in production[^\n]*$/);
  });
});

describe(`email in production goes over TLS only on ${testDatabaseKind}`, () => {
  let smtp: SMTPServer;
  let port: number;
  let database: TestDatabase;
  const received: string[] = [];

  beforeAll(async () => {
    // A server that offers no STARTTLS, as a man in the middle stripping it would make it look.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
    database = await createTestDatabase();
    await migrate(database.database);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await database.drop();
  });

  it('does not send a code in clear to a server that offers no TLS', async () => {
    const env = parseEnv({ ...PRODUCTION, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port) });
    const messenger = createMessenger(env, database.database.db);
    await expect(
      messenger.send({ channel: 'email', to: 'asha@example.in', subject: 'Your code', body: 'Code 445566' }),
    ).rejects.toThrow();
    expect(received).toEqual([]);
  });
});

describe(`TRUST_PROXY and a per-client limit on ${testDatabaseKind}`, () => {
  /** The public forms' limit: a thirtieth of RATE_LIMIT_PER_MINUTE, so 10 a minute here. */
  const FORM_LIMIT = 10;
  const PROXY = '10.0.0.5';
  const CLIENT = '198.51.100.23';
  let test: TestApp;
  let sequence = 0;

  /** A form post through one proxy that appends the address it saw to what the client sent. */
  const postThroughProxy = (forgedForwardedFor: string) =>
    test.app.inject({
      method: 'POST',
      url: '/api/inquiry',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': `${forgedForwardedFor}, ${CLIENT}` },
      payload: {
        name: 'Spam',
        email_or_phone: 'spam@example.in',
        role: 'user',
        message: `m${(sequence += 1)}`,
      },
    });

  beforeAll(async () => {
    test = await buildTestApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '300' } });
  });
  afterAll(async () => {
    await test.close();
  });

  it('TRUST_PROXY=1 trusts one hop: a rotating X-Forwarded-For does not walk past the limit', async () => {
    for (let i = 0; i < FORM_LIMIT; i++) {
      expect((await postThroughProxy(`192.0.2.${i + 1}`)).statusCode).toBe(201);
    }
    const after: number[] = [];
    for (let i = 0; i < 12; i++) after.push((await postThroughProxy(`192.0.2.${100 + i}`)).statusCode);
    expect(after).toEqual(Array.from({ length: 12 }, () => 429));
  });
});

describe('which address a request comes from, per TRUST_PROXY', () => {
  /** request.ip in a bare Fastify given the setting as buildApp passes it (the limit test above uses buildApp). */
  async function clientAddress(trustProxy: string | undefined, remoteAddress: string, forwardedFor: string) {
    const env = parseEnv(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy });
    const app = Fastify({ trustProxy: fastifyTrustProxy(env.TRUST_PROXY) });
    app.get('/', async (request) => ({ ip: request.ip }));
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      });
      return (response.json() as { ip: string }).ip;
    } finally {
      await app.close();
    }
  }

  it('believes the header only as far as it is told', async () => {
    const chain = '192.0.2.1, 198.51.100.23, 10.0.0.4';
    // Unset: no proxy, the socket's peer.
    expect(await clientAddress(undefined, '10.0.0.5', chain)).toBe('10.0.0.5');
    // One hop: what the proxy at the socket appended.
    expect(await clientAddress('1', '10.0.0.5', chain)).toBe('10.0.0.4');
    // Two hops.
    expect(await clientAddress('2', '10.0.0.5', chain)).toBe('198.51.100.23');
    // A hop count believes only a peer on this machine or a private network: a client that reaches the
    // server directly from the internet cannot pick its address with the header.
    expect(await clientAddress('1', '203.0.113.9', chain)).toBe('203.0.113.9');
    expect(await clientAddress('1', '::ffff:10.0.0.5', chain)).toBe('10.0.0.4');
    expect(await clientAddress('1', '::1', chain)).toBe('10.0.0.4');
    // Addresses: every trusted proxy is skipped, the first untrusted address is the client.
    expect(await clientAddress('10.0.0.0/8', '10.0.0.5', chain)).toBe('198.51.100.23');
    // A peer that is not a listed proxy sends what it likes: it is not believed.
    expect(await clientAddress('10.0.0.0/8', '203.0.113.9', chain)).toBe('203.0.113.9');
  });
});
