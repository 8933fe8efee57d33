import { request as requestFactory, expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { ADMIN_EMAIL } from './accounts';
import { finishPasskeyStepOnPage, loadDevice, passSecondFactor, withDeviceLock } from './passkeys';

/** Helpers that drive the auth screens as a user does. */

export function codeBox(page: Page, position: number): Locator {
  return page.getByRole('textbox', { name: `Digit ${position} of 6` });
}

/** Clicks the first box and types the code: each digit moves focus to the next box. */
export async function typeCode(page: Page, code: string): Promise<void> {
  await codeBox(page, 1).click();
  await page.keyboard.type(code);
}

/** Pastes `text` into a code box, as the clipboard would. */
export async function pasteInto(box: Locator, text: string): Promise<void> {
  await box.evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

export async function expectCode(page: Page, code: string): Promise<void> {
  for (let position = 1; position <= 6; position += 1) {
    await expect(codeBox(page, position)).toHaveValue(code.charAt(position - 1));
  }
}

/** The one message a form shows (its alert region). */
export function formAlert(page: Page): Locator {
  return page.getByRole('main').getByRole('alert');
}

export async function chooseChannel(page: Page, channel: 'email' | 'phone'): Promise<void> {
  await page
    .getByRole('group', { name: 'Log in with' })
    .getByRole('button', { name: channel === 'email' ? 'Email' : 'Phone', exact: true })
    .click();
}

/** Types a login contact: an email, or an E.164 phone typed after the '+91 ' prefix. */
export async function fillLoginContact(
  page: Page,
  channel: 'email' | 'phone',
  contact: string,
): Promise<void> {
  await chooseChannel(page, channel);
  if (channel === 'email') {
    await page.getByLabel('Email address').fill(contact);
    return;
  }
  const field = page.getByLabel('Phone number');
  await expect(field).toHaveValue('+91 ');
  await field.click();
  await field.press('End');
  await field.pressSequentially(contact.replace(/^\+91/, ''));
}

/**
 * Logs in on the login page with a password; an admin's or store owner's sign-in then takes its passkey
 * step on the page (issue 23), with the account's device in Chromium's virtual authenticator.
 */
export async function loginWithPassword(
  page: Page,
  account: { channel: 'email' | 'phone'; contact: string },
  password: string,
): Promise<void> {
  // The suite's one admin is shared by every worker: its passkey is the one made from its address.
  if (account.contact === ADMIN_EMAIL) await ensureDevicePasskey(page, account.contact, password);
  // The page's copy of the device counts on from the clock when it is loaded: no other copy may sign
  // between that and this sign-in's passkey step.
  await withDeviceLock(account.contact, async () => {
    await loadDevice(page, account.contact);
    await page.getByRole('button', { name: 'Login with Password' }).click();
    await fillLoginContact(page, account.channel, account.contact);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await finishPasskeyStepOnPage(page, account.contact);
  });
}

/** Signs the account in once through the API (in a context of its own), registering its device if needed. */
async function ensureDevicePasskey(page: Page, email: string, password: string): Promise<void> {
  const request = await requestFactory.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const login = await request.post('/api/auth/login', { data: { email, password } });
    expect(login.status(), await login.text()).toBe(200);
    const { second_factor } = (await login.json()) as {
      second_factor?: 'passkey_registration' | 'passkey' | null;
    };
    await passSecondFactor(request, email, second_factor);
  } finally {
    await request.dispose();
  }
}

export async function expectLoggedIn(page: Page, destination = '/user-dashboard'): Promise<void> {
  await expect(page).toHaveURL(destination);
  const site = page.getByRole('banner');
  await expect(site.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
}
