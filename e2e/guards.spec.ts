import { messages } from '@hasta/contracts/messages';
import type { Page } from '@playwright/test';

import { expect, test } from './support/accounts';
import { loginWithPassword } from './support/auth-ui';

import { admin, loginAs, shopper } from './support/storage';

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** The origin react-router keeps in history state (`{ from: location }`). */
async function rememberedFrom(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const state = window.history.state as { usr?: { from?: { pathname?: string } } } | null;
    return state?.usr?.from?.pathname ?? null;
  });
}

test.describe('route guards', () => {
  test('a logged-out visitor is sent to /login, which remembers the origin', async ({ page }) => {
    for (const path of [
      '/user-dashboard',
      '/admin',
      '/palm-register',
      '/transfer',
      '/receive',
      '/history',
      '/store-dashboard',
    ]) {
      await test.step(path, async () => {
        await page.goto(path);

        await expect(h1(page)).toHaveText('Login to Hasta');
        const url = new URL(page.url());
        expect(url.pathname).toBe('/login');
        expect(url.searchParams.get('next')).toBe(path);
        expect(await rememberedFrom(page)).toBe(path);
        await expect(page.getByRole('status').filter({ hasText: messages.unauthorized })).toBeVisible();

        // The origin survives a reload through ?next=.
        await page.reload();
        await expect(h1(page)).toHaveText('Login to Hasta');
        expect(new URL(page.url()).searchParams.get('next')).toBe(path);
        await expect(page.getByRole('status').filter({ hasText: messages.unauthorized })).toBeVisible();
      });
    }
  });

  test('a person’s pages send a logged-out visitor to /login and, once signed in, back', async ({
    page,
    account,
  }) => {
    await page.goto('/history');
    await expect(page).toHaveURL('/login?next=%2Fhistory');
    await loginWithPassword(page, account, account.password);
    await expect(page).toHaveURL('/history');
    await expect(h1(page)).toHaveText('Transaction History');
  });

  test('a plain visit to /login remembers nothing', async ({ page }) => {
    await page.goto('/login');
    await expect(h1(page)).toHaveText('Login to Hasta');
    await expect(page.getByText(messages.unauthorized)).toHaveCount(0);
  });

  test('a stored non-admin user gets the user dashboard, and /admin sends them there', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/user-dashboard');
    await expect(h1(page)).toHaveText('User Dashboard');
    await expect(page.getByText(`Welcome, ${shopper.username}`)).toBeVisible();

    await page.goto('/admin');
    await expect(page).toHaveURL('/user-dashboard');
    await expect(h1(page)).toHaveText('User Dashboard');
  });

  test('only is_admin true opens /admin', async ({ page }) => {
    await loginAs(page, { ...shopper, is_admin: 'no' as unknown as boolean });
    await page.goto('/admin');
    await expect(page).toHaveURL('/user-dashboard');

    await page.evaluate((user) => window.localStorage.setItem('user', user), JSON.stringify(admin));
    await page.goto('/admin');
    await expect(page).toHaveURL('/admin');
    await expect(h1(page)).toHaveText('Admin Dashboard');
  });
});
