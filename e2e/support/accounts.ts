import { randomBytes, randomInt } from 'node:crypto';

import { publicUserSchema, sessionAnswerSchema, signupResponseSchema } from '@hasta/contracts/auth';
import type { PublicUser } from '@hasta/contracts/auth';
import { test as base, expect } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';

import { extractCode, nextMessage } from './outbox';
import { passSecondFactor } from './passkeys';
import { seedLocalStorage } from './storage';

/** An account made for one test, with what it takes to log in. */
export interface Account {
  user: PublicUser;
  /** The address codes go to: the email, or the E.164 phone. */
  contact: string;
  channel: 'email' | 'phone';
  password: string;
}

export const ADMIN_EMAIL = 'admin@e2e.hasta.test';
export const ADMIN_PASSWORD = 'e2e-admin-password';

const token = (bytes: number): string => randomBytes(bytes).toString('hex');

/** A fresh address per test, so tests never share an account or a throttle. */
export function uniqueEmail(): string {
  return `u-${token(5)}@e2e.hasta.test`;
}

/** An Indian mobile number, E.164: +91 then 10 digits starting with 9. */
export function uniquePhone(): string {
  return `+919${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/** Long and random: the server refuses the 10,000 most common passwords. */
export function uniquePassword(): string {
  return `E2e-${token(6)}-pass`;
}

/**
 * Registers an account through the API, the way the register page does: send a registration code, read it
 * from the dev outbox, verify it, sign up. `request` should be a context of its own (its cookies become the
 * new account's session).
 */
export async function registerAccount(
  request: APIRequestContext,
  options: { channel?: 'email' | 'phone'; username?: string; password?: string } = {},
): Promise<Account> {
  const channel = options.channel ?? 'email';
  const contact = channel === 'email' ? uniqueEmail() : uniquePhone();
  const password = options.password ?? uniquePassword();
  const key = channel === 'email' ? 'email' : 'phone';
  const [sendPath, verifyPath] =
    channel === 'email'
      ? ['/api/email-otp/send', '/api/email-otp/verify']
      : ['/api/send-sms-otp', '/api/verify-sms-otp'];

  const message = await nextMessage(request, contact, async () => {
    const sent = await request.post(sendPath, { data: { [key]: contact, purpose: 'registration' } });
    expect(sent.status(), await sent.text()).toBe(200);
  });
  const verified = await request.post(verifyPath, {
    data: { [key]: contact, otp: extractCode(message.body), purpose: 'registration' },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const { verification_token } = (await verified.json()) as { verification_token?: string };

  const signedUp = await request.post('/api/auth/signup', {
    data: {
      username: options.username ?? `user-${token(3)}`,
      password,
      [key]: contact,
      ...(verification_token === undefined ? {} : { verification_token }),
    },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  const { user } = signupResponseSchema.parse(await signedUp.json());
  return { user, contact, channel, password };
}

/**
 * Signs the browser in without the login page: the session cookie from the API (shared with the page's
 * context) and the stored user record the app reads.
 */
export async function signIn(
  page: Page,
  credentials: { contact: string; channel: 'email' | 'phone'; password: string },
) {
  const key = credentials.channel === 'email' ? 'email' : 'phone';
  const response = await page.request.post('/api/auth/login', {
    data: { [key]: credentials.contact, password: credentials.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { user, second_factor } = sessionAnswerSchema.parse(await response.json());
  // An admin or store owner finishes the sign-in with their passkey (issue 23).
  await passSecondFactor(page.request, credentials.contact, second_factor);
  await seedLocalStorage(page, { user: JSON.stringify(publicUserSchema.parse(user)) });
  return user;
}

/** Tests get `account` (email) or `phoneAccount`: a new user each, registered through the API. */
export const test = base.extend<{ account: Account; phoneAccount: Account }>({
  account: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    try {
      await use(await registerAccount(request, { channel: 'email' }));
    } finally {
      // There is no account deletion endpoint: each run's database is a fresh temp directory.
      await request.dispose();
    }
  },
  phoneAccount: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    try {
      await use(await registerAccount(request, { channel: 'phone' }));
    } finally {
      await request.dispose();
    }
  },
});

export { expect };
