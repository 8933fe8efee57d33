import { messages } from '@hasta/contracts/messages';
import type { Page } from '@playwright/test';

import { expect, test, uniquePassword } from './support/accounts';
import {
  chooseChannel,
  codeBox,
  expectCode,
  expectLoggedIn,
  fillLoginContact,
  formAlert,
  loginWithPassword,
  pasteInto,
  typeCode,
} from './support/auth-ui';
import { axeViolations } from './support/axe';
import { extractCode, nextMessage } from './support/outbox';
import { readLocalStorage } from './support/storage';

/** Logins that need a code for an existing account (each test registers its own). */
test.use({ reducedMotion: 'reduce' });

async function requestLoginCode(page: Page, to: string): Promise<string> {
  const message = await nextMessage(page.request, to, () =>
    page.getByRole('button', { name: 'Login with OTP' }).click(),
  );
  return extractCode(message.body);
}

test.describe('login with a one-time code', () => {
  test('by email: six boxes with auto-advance, Backspace, digits only and paste', async ({
    page,
    account: account,
  }) => {
    await page.goto('/login');
    await fillLoginContact(page, 'email', account.contact);
    const code = await requestLoginCode(page, account.contact);

    await expect(page.getByRole('heading', { level: 2, name: 'Enter your one-time code' })).toBeVisible();
    await expect(page.getByText(messages.otpSentEmail)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Resend OTP in \d+s$/ })).toBeDisabled();

    // Typing moves on; letters are refused; Backspace on an empty box clears the one before and goes back.
    await codeBox(page, 1).click();
    await page.keyboard.type('1a2');
    await expect(codeBox(page, 1)).toHaveValue('1');
    await expect(codeBox(page, 2)).toHaveValue('2');
    await expect(codeBox(page, 3)).toBeFocused();
    await page.keyboard.press('Backspace');
    await expect(codeBox(page, 2)).toHaveValue('');
    await expect(codeBox(page, 2)).toBeFocused();

    // Pasting the whole code fills every box, wherever it lands.
    await pasteInto(codeBox(page, 2), code);
    await expectCode(page, code);
    await page.getByRole('button', { name: 'Verify & Login' }).click();

    await expectLoggedIn(page);
    await expect(page.getByRole('banner').getByRole('link', { name: 'User Page' })).toBeVisible();
    const stored = JSON.parse((await readLocalStorage(page, 'user')) ?? '{}') as Record<string, unknown>;
    expect(stored).toMatchObject({ id: account.user.id, email: account.contact, is_admin: false });
  });

  test('by phone', async ({ page, phoneAccount: account }) => {
    await page.goto('/login');
    await fillLoginContact(page, 'phone', account.contact);
    const code = await requestLoginCode(page, account.contact);
    await expect(page.getByText(messages.otpSentPhone)).toBeVisible();
    await typeCode(page, code);
    await page.getByRole('button', { name: 'Verify & Login' }).click();
    await expectLoggedIn(page);
  });

  test('forgot password by phone: code and new password sign in; the new password then works', async ({
    page,
    phoneAccount: account,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login with Password' }).click();
    await chooseChannel(page, 'email');
    await page.getByRole('button', { name: 'Forgot password?' }).click();

    // It switches to phone mode with the spec's prompt.
    await expect(page.getByText('Enter your phone number to reset via OTP.')).toBeVisible();
    await expect(page.getByLabel('Phone number')).toHaveValue('+91 ');
    expect(await axeViolations(page), 'forgot password').toEqual([]);
    await fillLoginContact(page, 'phone', account.contact);
    const message = await nextMessage(page.request, account.contact, () =>
      page.getByRole('button', { name: 'Send Reset Code' }).click(),
    );
    expect(message.body).toContain('password reset code');
    expect(await axeViolations(page), 'reset code and new password').toEqual([]);

    const newPassword = uniquePassword();
    const reset = page.getByRole('button', { name: 'Reset Password' });
    await reset.click();
    await expect(formAlert(page)).toHaveText(messages.enterSixDigitCode);
    await typeCode(page, extractCode(message.body));
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
    await reset.click();
    await expect(formAlert(page)).toHaveText(messages.passwordsDoNotMatch);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await reset.click();
    await expect(page.getByText(messages.passwordResetDone)).toBeVisible();
    await expectLoggedIn(page);

    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/login');
    await loginWithPassword(page, account, account.password);
    await expect(formAlert(page)).toHaveText(messages.wrongCredentials);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectLoggedIn(page);
  });

  test('a code by SMS to a number outside the allowed countries is refused with its text', async ({
    page,
  }) => {
    await page.goto('/login');
    await chooseChannel(page, 'phone');
    const phone = page.getByLabel('Phone number');
    // The +91 prefix is unlocked by a double click, as for any number from abroad.
    await phone.dblclick();
    await phone.fill('');
    await phone.pressSequentially('+44 7700 900123');
    await page.getByRole('button', { name: 'Login with OTP' }).click();
    await expect(formAlert(page)).toHaveText(messages.smsCountryNotAllowed);
    await expect(page.getByRole('heading', { level: 2, name: 'Enter your one-time code' })).toHaveCount(0);
  });
});
