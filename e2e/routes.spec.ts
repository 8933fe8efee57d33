import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { NOT_FOUND_HEADING, PERSON_PAGES, PUBLIC_PAGES, UNGUARDED_APP_PAGES } from './support/routes';
import { admin, loginAs, shopper } from './support/storage';

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** Loads `path` afresh and checks it shows exactly one h1 with `heading`. */
async function expectPage(page: Page, path: string, heading: string): Promise<void> {
  await test.step(`${path} shows "${heading}"`, async () => {
    await page.goto(path);
    await expect(h1(page)).toHaveText(heading);
    await expect(h1(page)).toHaveCount(1);
    await expect(page).toHaveTitle(new RegExp(PRODUCT_NAME));
    await expect(page).toHaveURL(path);
  });
}

test.describe('every route renders its one h1', () => {
  test('the public pages', async ({ page }) => {
    for (const { path, heading } of PUBLIC_PAGES) await expectPage(page, path, heading);
  });

  test('the unguarded app pages', async ({ page }) => {
    for (const { path, heading } of UNGUARDED_APP_PAGES) await expectPage(page, path, heading);
  });

  test('a person’s pages, for a stored user (guards.spec.ts: signed out they go to /login)', async ({
    page,
  }) => {
    await loginAs(page, shopper);
    for (const { path, heading } of PERSON_PAGES) await expectPage(page, path, heading);
  });

  test('the guarded pages, for a stored admin', async ({ page }) => {
    await loginAs(page, admin);
    await expectPage(page, '/user-dashboard', 'User Dashboard');
    await expectPage(page, '/admin', 'Admin Dashboard');
    // Not a merchant: the page says whom it is for (merchant-dashboard.spec.ts covers the rest).
    await expectPage(page, '/store-dashboard', 'Merchant Dashboard');
  });

  test('an unknown path shows the not-found page with a way home', async ({ page }) => {
    await expectPage(page, '/no-such-page/at-all', NOT_FOUND_HEADING);
    await page.getByRole('main').getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL('/');
    await expect(h1(page)).toHaveText(PUBLIC_PAGES[0].heading);
  });

  test('client-side navigation swaps the page and its title', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Site' })
      .getByRole('link', { name: 'Demo', exact: true })
      .click();
    await expect(page).toHaveURL('/demo');
    await expect(h1(page)).toHaveText('How It Works');
    await expect(page).toHaveTitle(`How It Works · ${PRODUCT_NAME}`);
    await page.getByRole('link', { name: 'Start Demo' }).click();
    await expect(page).toHaveURL('/palm-register');
    await expect(h1(page)).toHaveText('Palm Registration');
    await expect(h1(page)).toHaveCount(1);
  });
});
