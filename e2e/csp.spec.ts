import { expect, test } from '@playwright/test';

test.describe('content security policy', () => {
  test('/ is served with a strict CSP and runs without console errors or violations', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    // Our own scripts, and WebAssembly compilation for the palm scanner's MediaPipe Hands: no eval(), nothing inline.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("connect-src 'self'");

    // Exercise the app: a client-side navigation, a dialog and the favicon.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Partner with POS' }).click();
    await expect(page.getByRole('dialog', { name: 'POS device specifications' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Technology' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The Technology Behind Hasta');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Stars Programme' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stars Programme');
    const favicon = await page.request.get('/favicon.svg');
    expect(favicon.ok()).toBe(true);

    expect(problems).toEqual([]);
  });

  test('a deep link is served the same app with the same policy', async ({ page }) => {
    const response = await page.goto('/verify');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify a receipt');
  });
});
