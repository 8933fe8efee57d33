import { messages } from '@hasta/contracts/messages';
import type { Page } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, signIn, test, uniquePassword } from './support/accounts';
import { expectLoggedIn, loginWithPassword } from './support/auth-ui';
import { openRowActions } from './support/admin';
import { axeViolations } from './support/axe';

test.use({ reducedMotion: 'reduce' });

/** The newest toast with this text (react-hot-toast keeps earlier ones while they fade). */
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).last();

test.describe('change password dialog', () => {
  test('checks its fields, changes the password, closes and clears; the new password logs in', async ({
    page,
    account,
  }) => {
    await signIn(page, account);
    await page.goto('/user-dashboard');
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await expect(dialog).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    const current = dialog.getByLabel('Current password');
    const next = dialog.getByLabel('New password', { exact: true });
    const confirm = dialog.getByLabel('Confirm new password');
    const submit = dialog.getByRole('button', { name: 'Change Password' });

    await submit.click();
    await expect(toast(page, messages.allFieldsRequired)).toBeVisible();
    await current.fill(account.password);
    await next.fill('abc');
    await confirm.fill('abc');
    await submit.click();
    await expect(toast(page, messages.newPasswordMinLength)).toBeVisible();
    await next.fill('secret-one');
    await confirm.fill('secret-two');
    await submit.click();
    await expect(toast(page, messages.passwordsDoNotMatch)).toBeVisible();

    await current.fill('not-my-password');
    await confirm.fill('secret-one');
    await submit.click();
    await expect(toast(page, messages.wrongOriginalPassword)).toBeVisible();

    // Hold the answer until the in-flight label has been seen.
    const newPassword = uniquePassword();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/auth/change-password', async (route) => {
      await held;
      await route.continue();
    });
    await current.fill(account.password);
    await next.fill(newPassword);
    await confirm.fill(newPassword);
    await submit.click();
    await expect(dialog.getByRole('button', { name: 'Changing...' })).toBeDisabled();
    release();
    await expect(toast(page, messages.passwordChanged)).toBeVisible();
    await expect(dialog).toBeHidden();
    // One message for the outcome: no earlier attempt's error beside the success.
    for (const earlier of [
      messages.allFieldsRequired,
      messages.newPasswordMinLength,
      messages.passwordsDoNotMatch,
      messages.wrongOriginalPassword,
    ]) {
      await expect(page.getByRole('status').filter({ hasText: earlier })).toHaveCount(0);
    }

    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(current).toHaveValue('');
    await expect(next).toHaveValue('');
    await expect(confirm).toHaveValue('');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/login');
    await loginWithPassword(page, account, account.password);
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(messages.wrongCredentials);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectLoggedIn(page);
  });
});

test.describe('change password feedback', () => {
  test('a success replaces the error of the attempt before it: never both at once', async ({
    page,
    account,
  }) => {
    await signIn(page, account);
    await page.goto('/user-dashboard');
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    const submit = dialog.getByRole('button', { name: 'Change Password' });
    await submit.click();
    await expect(toast(page, messages.allFieldsRequired)).toBeVisible();
    const newPassword = uniquePassword();
    await dialog.getByLabel('Current password').fill(account.password);
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Confirm new password').fill(newPassword);
    await submit.click();
    await expect(toast(page, messages.passwordChanged)).toBeVisible();
    // Checked at once, not waited for: the error must be gone the moment the success shows.
    expect(await page.getByRole('status').filter({ hasText: messages.allFieldsRequired }).count()).toBe(0);
  });
});

test.describe('signed-in devices in Settings', () => {
  test('lists this device and signs out everywhere else', async ({ page, account }) => {
    await signIn(page, account);
    await page.goto('/user-dashboard');
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    const devices = dialog.getByRole('region', { name: 'Signed-in devices' });
    await expect(devices.getByText('This device:')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await devices.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(toast(page, messages.otherSessionsSignedOut)).toBeVisible();
    await expect(devices.getByText('No other device is signed in.')).toBeVisible();
  });
});

test.describe('admin password reset', () => {
  test('the admin resets a user; the user logs in with the temporary password and must choose a new one', async ({
    page,
    browser,
    account,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    // The admin logs in on the login page and lands on /admin.
    await page.goto('/login');
    await loginWithPassword(page, { channel: 'email', contact: ADMIN_EMAIL }, ADMIN_PASSWORD);
    await expectLoggedIn(page, '/admin');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Admin Page' })).toBeVisible();
    const users = page.getByRole('region', { name: 'Users' });
    const row = users.getByRole('row').filter({ hasText: account.contact });
    await expect(row).toBeVisible();
    await expect(users.getByRole('cell', { name: ADMIN_EMAIL })).toHaveCount(0);
    expect(await axeViolations(page), 'users list').toEqual([]);

    await openRowActions(row);
    await row.getByRole('button', { name: 'Reset password' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset password?' });
    await expect(confirm).toContainText(account.contact);
    expect(await axeViolations(page), 'confirm dialog').toEqual([]);
    await confirm.getByRole('button', { name: 'Confirm reset' }).click();

    const result = page.getByRole('dialog', { name: 'Temporary password' });
    await expect(result).toContainText('must change it at their next login');
    await expect(result.getByRole('button', { name: 'Copy' })).toBeVisible();
    const temporary = (await result.locator('code').textContent()) ?? '';
    expect(temporary.length).toBeGreaterThanOrEqual(8);
    await result.getByRole('button', { name: 'Close' }).click();

    // The user, in a browser of their own.
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const userPage = await context.newPage();
    try {
      await userPage.goto('/login');
      await loginWithPassword(userPage, account, account.password);
      await expect(userPage.getByRole('main').getByRole('alert')).toHaveText(messages.wrongCredentials);
      await userPage.getByLabel('Password', { exact: true }).fill(temporary);
      await userPage.getByRole('button', { name: 'Login', exact: true }).click();

      await expect(userPage.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
      await expect(userPage.getByText(/Your password was reset by an administrator\./)).toBeVisible();
      await expect(userPage).toHaveURL('/login');
      await expect(userPage.getByRole('banner').getByRole('button', { name: 'Logout' })).toHaveCount(0);
      expect(await axeViolations(userPage), 'forced change').toEqual([]);
      const chosen = uniquePassword();
      await userPage.getByLabel('New password', { exact: true }).fill(chosen);
      await userPage.getByLabel('Confirm new password').fill(chosen);
      await userPage.getByRole('button', { name: 'Save New Password' }).click();
      await expectLoggedIn(userPage);

      const again = await userPage.request.post('/api/auth/login', {
        data: { email: account.contact, password: chosen },
      });
      expect(again.status()).toBe(200);
    } finally {
      await context.close();
    }
  });

  test("loading and failures: 'Loading users...', 'Failed to load users', 'Failed to reset password: '", async ({
    page,
    account,
  }) => {
    await signIn(page, { channel: 'email', contact: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let failLoad = true;
    await page.route('**/api/auth/users', async (route) => {
      if (!failLoad) return route.continue();
      await held;
      return route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'FORBIDDEN', error: messages.forbidden, message: messages.forbidden }),
      });
    });
    await page.route('**/api/auth/reset-password', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'NOT_FOUND',
          error: messages.userNotFound,
          message: messages.userNotFound,
        }),
      }),
    );
    await page.goto('/admin');
    const users = page.getByRole('region', { name: 'Users' });
    await expect(users.getByText('Loading users...')).toBeVisible();
    release();
    await expect(users.getByRole('alert')).toContainText(
      `${messages.failedToLoadUsers}: ${messages.forbidden}`,
    );

    failLoad = false;
    await users.getByRole('button', { name: 'Retry' }).click();
    const row = users.getByRole('row').filter({ hasText: account.contact });
    await openRowActions(row);
    await row.getByRole('button', { name: 'Reset password' }).click();
    await page
      .getByRole('dialog', { name: 'Reset password?' })
      .getByRole('button', { name: 'Confirm reset' })
      .click();
    await expect(toast(page, `Failed to reset password: ${messages.userNotFound}`)).toBeVisible();
  });
});
