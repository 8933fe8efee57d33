import { hashPassword } from '../../src/lib/password';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/database';
import { SoftwareAuthenticator } from './software-authenticator';

let counter = 0;
/** A unique address per call, so tests in one file never share throttles. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@test.hasta.in`;
}

export function uniquePhone(): string {
  counter += 1;
  return `+9170${String(Date.now() % 1e6).padStart(6, '0')}${String(counter % 100).padStart(2, '0')}`;
}

/** The newest message to an address, from the outbox table. */
export async function lastMessage(
  database: Database,
  to: string,
): Promise<{ subject: string | null; body: string }> {
  const row = await database.db
    .selectFrom('outbox_messages')
    .select(['subject', 'body'])
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row;
}

export async function lastCode(database: Database, to: string): Promise<string> {
  const { body } = await lastMessage(database, to);
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`No code in the last message to ${to}: ${body}`);
  return code;
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'hasta_session');
  if (!cookie) throw new Error('No session cookie set');
  return cookie.value;
}

/** Registers through the real endpoints (send, verify, signup) and returns the session token and user. */
export async function registerUser(
  app: FastifyInstance,
  database: Database,
  options: { email?: string; phone?: string; password?: string; username?: string } = {},
): Promise<{
  token: string;
  user: { id: string; email: string | null; phone: string | null };
  password: string;
}> {
  const password = options.password ?? 'correct horse battery';
  const contact = options.phone ? { phone: options.phone } : { email: options.email ?? uniqueEmail() };
  const identifier = contact.phone ?? contact.email!;
  const [sendUrl, verifyUrl] = contact.phone
    ? ['/api/send-sms-otp', '/api/verify-sms-otp']
    : ['/api/email-otp/send', '/api/email-otp/verify'];
  const sent = await app.inject({
    method: 'POST',
    url: sendUrl,
    payload: { ...contact, purpose: 'registration' },
  });
  if (sent.statusCode !== 200) throw new Error(`send: ${sent.body}`);
  const otp = await lastCode(database, identifier);
  const verified = await app.inject({ method: 'POST', url: verifyUrl, payload: { ...contact, otp } });
  if (verified.statusCode !== 200) throw new Error(`verify: ${verified.body}`);
  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      username: options.username ?? 'Test User',
      password,
      ...contact,
      verification_token: verified.json().verification_token,
    },
  });
  if (signup.statusCode !== 200) throw new Error(`signup: ${signup.body}`);
  return { token: signup.json().token, user: signup.json().user, password };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Moves an address's past sends out of the 60-second resend cooldown, as if a minute had passed. */
export async function passCooldown(database: Database, identifier: string): Promise<void> {
  await database.db
    .updateTable('otp_events')
    .set({ created_at: new Date(Date.now() - 61_000) })
    .where('identifier', '=', identifier)
    .where('kind', '=', 'send')
    .execute();
}

/** An admin account made directly in the database, signed in through the API; returns its bearer token. */
export async function signInAsAdmin(app: FastifyInstance, database: Database): Promise<string> {
  const email = uniqueEmail('admin');
  const password = 'admin password 1';
  await database.db
    .insertInto('users')
    .values({ email, username: 'Admin', role: 'admin', password_hash: await hashPassword(password) })
    .execute();
  const { token } = await logIn(app, { email, password });
  return token;
}

/**
 * The passkey each account uses in these tests, one per user id and app (the owner's device): made at the
 * account's first sign-in, used at every later one.
 */
const devices = new WeakMap<FastifyInstance, Map<string, SoftwareAuthenticator>>();

export function deviceOf(app: FastifyInstance, userId: string): SoftwareAuthenticator {
  let byUser = devices.get(app);
  if (!byUser) {
    byUser = new Map();
    devices.set(app, byUser);
  }
  let device = byUser.get(userId);
  if (!device) {
    device = new SoftwareAuthenticator(app.env.WEBAUTHN_ORIGINS[0]!);
    byUser.set(userId, device);
  }
  return device;
}

async function injectOk(
  app: FastifyInstance,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  const response = await app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  if (response.statusCode !== 200)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response;
}

/**
 * Finishes a session's sign-in with its passkey when its user is an admin or a store owner (issue 23): the
 * first time the account's device registers one (the answer's recovery codes are returned), later it signs.
 * Does nothing for a session with nothing pending.
 */
export async function passSecondFactor(
  app: FastifyInstance,
  token: string,
): Promise<{ recoveryCodes: string[] | undefined }> {
  const session = (await injectOk(app, token, 'GET', '/api/auth/session')).json();
  const step = session.second_factor as 'passkey_registration' | 'passkey' | null;
  if (step === null) return { recoveryCodes: undefined };
  const device = deviceOf(app, session.user.id as string);
  if (step === 'passkey_registration') {
    const { options } = (await injectOk(app, token, 'POST', '/api/passkeys/registration/options')).json();
    const verified = await injectOk(app, token, 'POST', '/api/passkeys/registration/verify', {
      response: device.register(options),
    });
    return { recoveryCodes: verified.json().recovery_codes as string[] | undefined };
  }
  await confirmWithPasskey(app, token, { purpose: 'sign_in' });
  return { recoveryCodes: undefined };
}

/**
 * A passkey check of the session's own device for one purpose (sign_in, reauth, transfer with its amount
 * and receiver, or a step-up purpose); answers the verify call's body.
 */
export async function confirmWithPasskey(
  app: FastifyInstance,
  token: string,
  request: { purpose: string; amount?: number; receiverEmail?: string; receiverPhone?: string },
): Promise<Record<string, unknown>> {
  const session = (await injectOk(app, token, 'GET', '/api/auth/session')).json();
  const device = deviceOf(app, session.user.id as string);
  const { options } = (
    await injectOk(app, token, 'POST', '/api/passkeys/authentication/options', request)
  ).json();
  const verified = await injectOk(app, token, 'POST', '/api/passkeys/authentication/verify', {
    response: device.assert(options),
  });
  return verified.json();
}

/**
 * Logs in through POST /api/auth/login (password or code) and, for an admin or a store owner, finishes the
 * sign-in with the account's passkey; answers the login's body (its token now a finished session's).
 */
export async function logIn(
  app: FastifyInstance,
  payload: Record<string, unknown>,
  options: { headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<{ token: string; user: { id: string; role: string; must_change_password: boolean } }> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const body = login.json();
  await passSecondFactor(app, body.token as string);
  return body;
}
