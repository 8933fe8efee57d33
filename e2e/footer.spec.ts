import { comingSoonTitle, messages } from '@hasta/contracts/messages';
import { expect, test } from '@playwright/test';

test.describe('footer', () => {
  test('shows the copyright line', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toContainText('© 2025 Hasta');
  });

  test('each programme opens a Coming Soon dialog that closes by button', async ({ page }) => {
    await page.goto('/');
    for (const feature of ['Stars Programme', 'Points Programme']) {
      const opener = page.getByRole('contentinfo').getByRole('button', { name: feature });
      await opener.click();

      const dialog = page.getByRole('dialog', { name: comingSoonTitle(feature) });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('heading')).toHaveText(`${feature} Coming Soon!`);
      await expect(dialog).toContainText(messages.comingSoonBody);
      await expect(dialog).toHaveAttribute('aria-modal', 'true');
      const close = dialog.getByRole('button', { name: 'Close' });
      await expect(close).toBeFocused();

      await close.click();
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }
  });

  test('the Coming Soon dialog closes on Escape', async ({ page }) => {
    await page.goto('/technology');
    const opener = page.getByRole('button', { name: 'Points Programme' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Points Programme Coming Soon!' });
    await expect(dialog).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('Privacy and Terms lead to real pages', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms');
  });
});
