import type { APIRequestContext, Browser, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { expect } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD, signIn } from './accounts';
import type { Account } from './accounts';
import { extractCode, nextMessage } from './outbox';
import { asksForPasskeyAgain, confirmByApi, passSecondFactor } from './passkeys';

/** Helpers for the wallet tests: API set-up of balances and transfers, and signed-in pages. */

export const inr = (amount: number): string =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(amount);

/** A request context of its own, logged in with a password. */
export async function apiSession(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  credentials: { channel: 'email' | 'phone'; contact: string; password: string },
): Promise<APIRequestContext> {
  const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
  const key = credentials.channel === 'email' ? 'email' : 'phone';
  const response = await request.post('/api/auth/login', {
    data: { [key]: credentials.contact, password: credentials.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  // An admin or store owner finishes the sign-in with their passkey (issue 23).
  const { second_factor } = (await response.json()) as {
    second_factor?: 'passkey_registration' | 'passkey' | null;
  };
  await passSecondFactor(request, credentials.contact, second_factor);
  return request;
}

export function adminSession(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
): Promise<APIRequestContext> {
  return apiSession(playwright, baseURL, {
    channel: 'email',
    contact: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
}

export async function giveValue(admin: APIRequestContext, userId: string, amount: number): Promise<void> {
  let response = await admin.post('/api/assignBalance', { data: { userId, amount } });
  // Moving money asks for the admin's passkey again once its last use is 5 minutes old (issue 23).
  if (await asksForPasskeyAgain(response)) {
    await confirmByApi(admin, ADMIN_EMAIL, { purpose: 'reauth' });
    response = await admin.post('/api/assignBalance', { data: { userId, amount } });
  }
  expect(response.status(), await response.text()).toBe(200);
}

/** A whole transfer through the API, as the transfer page makes it: code to the sender, verify, pay. */
export async function apiTransfer(
  sender: APIRequestContext,
  account: Account,
  to: { receiverEmail?: string; receiverPhone?: string },
  amount: number,
): Promise<void> {
  const key = account.channel === 'email' ? 'email' : 'phone';
  const [sendPath, verifyPath] =
    account.channel === 'email'
      ? ['/api/email-otp/send', '/api/email-otp/verify']
      : ['/api/send-sms-otp', '/api/verify-sms-otp'];
  const message = await nextMessage(sender, account.contact, async () => {
    const sent = await sender.post(sendPath, { data: { [key]: account.contact, purpose: 'transfer' } });
    expect(sent.status(), await sent.text()).toBe(200);
  });
  const verified = await sender.post(verifyPath, {
    data: { [key]: account.contact, otp: extractCode(message.body), purpose: 'transfer' },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const paid = await sender.post('/api/transfer', {
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    data: {
      userId: account.user.id,
      receiverEmail: to.receiverEmail ?? '',
      receiverPhone: to.receiverPhone ?? '',
      amount,
      transferMethod: 'phone_email',
    },
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

/** A page in a browser context of its own, signed in as `account`. */
export async function pageFor(
  browser: Browser,
  baseURL: string | undefined,
  credentials: { channel: 'email' | 'phone'; contact: string; password: string },
): Promise<Page> {
  const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
  const page = await context.newPage();
  await signIn(page, credentials);
  return page;
}
