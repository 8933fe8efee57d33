import { PUBLIC_PAGE_PATHS } from '@hasta/contracts/site-pages';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { axeViolations } from './support/axe';
import { serveBlankMapTiles } from './support/marketing';

// Axe measures colour contrast, so pages are checked at rest: the app skips its fades for reduced motion.
test.use({ reducedMotion: 'reduce' });

async function expectNoViolations(page: Page, what: string): Promise<void> {
  expect.soft(await axeViolations(page), `axe violations: ${what}`).toEqual([]);
}

test.describe('accessibility of the public site (axe-core)', () => {
  test('each public page, with its interactive parts open', async ({ page }) => {
    await page.goto('/technology');
    await page.getByRole('button', { name: /Which blockchain/ }).click();
    await expectNoViolations(page, '/technology with a FAQ answer open');

    await page.goto('/features');
    await page.getByRole('link', { name: /^Offline buffer mode/ }).click();
    await expectNoViolations(page, '/features after a card click');

    await page.goto('/demo');
    await page.getByRole('button', { name: /Consent stored on chain/ }).hover();
    await expectNoViolations(page, '/demo with a step detail shown');

    await page.goto('/contact');
    await page.getByRole('button', { name: 'Send inquiry' }).click();
    await expect(page.getByRole('form', { name: 'General inquiry' }).getByRole('alert')).not.toBeEmpty();
    await expectNoViolations(page, '/contact with an error shown');

    await page.goto('/applicants-register');
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await expect(page.getByRole('main').getByRole('alert')).not.toBeEmpty();
    await expectNoViolations(page, '/applicants-register with an error shown');
  });

  test('each dialog, open', async ({ page }) => {
    await serveBlankMapTiles(page);
    await page.goto('/');

    await page.getByRole('button', { name: 'Locate kiosk' }).click();
    const locate = page.getByRole('dialog', { name: 'Locate a kiosk' });
    await expect(locate.locator('.leaflet-marker-icon')).toHaveCount(3);
    await expect(locate.locator('.leaflet-tile-loaded').first()).toBeAttached();
    await expectNoViolations(page, 'Locate kiosk dialog');
    await locate.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Partner with POS' }).click();
    await expect(page.getByRole('dialog', { name: 'POS device specifications' })).toBeVisible();
    await expectNoViolations(page, 'POS specifications dialog');
    await page.keyboard.press('Escape');

    await page.goto('/technology');
    await page.getByRole('button', { name: 'Host a Kiosk' }).click();
    const host = page.getByRole('dialog', { name: 'Host a kiosk' });
    await host.getByRole('button', { name: 'Submit application' }).click();
    await expect(host.getByRole('alert')).not.toBeEmpty();
    await expectNoViolations(page, 'Host a kiosk dialog with an error shown');
  });

  test.describe('in Hindi', () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('language', 'hi'));
    });

    for (const path of PUBLIC_PAGE_PATHS) {
      test(`${path}`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
        await expectNoViolations(page, `${path} in Hindi`);
      });
    }
  });
});
