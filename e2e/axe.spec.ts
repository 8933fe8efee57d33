import { PUBLIC_PAGE_PATHS } from '@hasta/contracts/site-pages';
import { expect, test } from '@playwright/test';

import { axeViolations } from './support/axe';
import { NOT_FOUND_HEADING, PERSON_PAGES, UNGUARDED_APP_PAGES } from './support/routes';
import { loginAs, shopper } from './support/storage';

// Axe measures colour contrast, so pages are checked at rest: the app skips its fades for reduced motion.
test.use({ reducedMotion: 'reduce' });

test.describe('accessibility (axe-core)', () => {
  // One test per page: axe takes a few seconds a page, and each failure names its page.
  const pages = [
    ...PUBLIC_PAGE_PATHS,
    ...UNGUARDED_APP_PAGES.map(({ path }) => path).filter(
      (path) => !(PUBLIC_PAGE_PATHS as readonly string[]).includes(path),
    ),
  ];
  for (const path of pages) {
    test(`${path} has no violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  for (const { path } of PERSON_PAGES) {
    test(`${path} has no violations, for a stored user`, async ({ page }) => {
      await loginAs(page, shopper);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test('the not-found page has no violations', async ({ page }) => {
    await page.goto('/missing-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND_HEADING);
    expect(await axeViolations(page)).toEqual([]);
  });

  // The footer's programmes opened a Coming Soon dialog until issue 24 gave them pages of their own.
  test('the programme page the footer opens has no violations', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Stars Programme' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stars Programme');
    expect(await axeViolations(page)).toEqual([]);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the home page with the menu open has no violations', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
