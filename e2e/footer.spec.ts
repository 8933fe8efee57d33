import { expect, test } from '@playwright/test';

test.describe('footer', () => {
  test('shows the copyright line', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toContainText('© 2025 Hasta');
  });

  test('each programme opens its page of rules (issue 24: the Coming Soon dialog is gone)', async ({
    page,
  }) => {
    for (const [feature, path] of [
      ['Stars Programme', '/rewards/stars'],
      ['Points Programme', '/rewards/points'],
    ] as const) {
      await page.goto('/');
      await page.getByRole('contentinfo').getByRole('link', { name: feature }).click();
      await expect(page).toHaveURL(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(feature);
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });

  test('Privacy and Terms lead to real pages', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms');
  });
});
