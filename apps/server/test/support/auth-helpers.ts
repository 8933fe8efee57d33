import { hashPassword } from '../../src/lib/password';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/database';

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
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`admin login: ${login.body}`);
  return login.json().token as string;
}
