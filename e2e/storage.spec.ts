import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { readLocalStorage, seedLocalStorage, shopper } from './support/storage';

/** Writes entries and reloads: the app cleans storage on every start, reloads included. */
async function restartWith(page: Page, entries: Record<string, string>): Promise<void> {
  await page.evaluate((values) => {
    for (const [key, value] of Object.entries(values)) window.localStorage.setItem(key, value);
  }, entries);
  await page.reload();
}

test.describe('stored login on start', () => {
  test("'undefined' and 'null' user and session entries are removed before the app renders", async ({
    page,
  }) => {
    await seedLocalStorage(page, { user: 'undefined', session: 'null', unrelated: 'null' });
    await page.goto('/');

    await expect(page.getByRole('link', { name: 'Launch App' })).toBeVisible();
    expect(await readLocalStorage(page, 'user')).toBeNull();
    expect(await readLocalStorage(page, 'session')).toBeNull();
    expect(await readLocalStorage(page, 'unrelated')).toBe('null');

    await restartWith(page, { user: 'null', session: 'undefined' });
    await expect(page.getByRole('link', { name: 'Launch App' })).toBeVisible();
    expect(await readLocalStorage(page, 'user')).toBeNull();
    expect(await readLocalStorage(page, 'session')).toBeNull();
  });

  test('an unreadable user entry is removed; a valid one is kept', async ({ page }) => {
    await seedLocalStorage(page, { user: '{not json' });
    await page.goto('/user-dashboard');

    await expect(page).toHaveURL('/login?next=%2Fuser-dashboard');
    expect(await readLocalStorage(page, 'user')).toBeNull();

    const raw = JSON.stringify(shopper);
    await restartWith(page, { user: raw });
    await expect(page.getByRole('link', { name: 'User Page' })).toBeVisible();
    expect(await readLocalStorage(page, 'user')).toBe(raw);
  });
});
