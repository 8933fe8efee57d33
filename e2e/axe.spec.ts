import { expect, test } from '@playwright/test';

import { axeViolations } from './support/axe';
import { NOT_FOUND_HEADING, PUBLIC_PAGES } from './support/routes';

// Axe measures colour contrast, so pages are checked at rest: the app skips its fades for reduced motion.
test.use({ reducedMotion: 'reduce' });

test.describe('accessibility (axe-core)', () => {
  test('every public page and the not-found page have no violations', async ({ page }) => {
    const pages = [...PUBLIC_PAGES, { path: '/missing-page', heading: NOT_FOUND_HEADING }];
    for (const { path, heading } of pages) {
      await test.step(path, async () => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        expect.soft(await axeViolations(page), `axe violations on ${path}`).toEqual([]);
      });
    }
  });

  test('the open Coming Soon dialog has no violations', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Stars Programme' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
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
