import { messages } from '@hasta/contracts/messages';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { loginAs, shopper } from './support/storage';

const ACTIONS = [
  { name: 'Palm Register', path: '/palm-register', heading: 'Palm Registration' },
  { name: 'Pay', path: '/transfer', heading: 'Send Money' },
  { name: 'Receive', path: '/receive', heading: 'Receive Money' },
] as const;

const heroLink = (page: Page, name: string) =>
  page.getByRole('main').getByRole('link', { name, exact: true });

test.describe('home hero actions', () => {
  test('logged out, each goes to /login and says the visitor must log in', async ({ page }) => {
    for (const action of ACTIONS) {
      await test.step(action.name, async () => {
        await page.goto('/');
        const link = heroLink(page, action.name);
        await expect(link).toHaveAccessibleDescription(messages.unauthorized);

        await link.hover();
        const tooltip = page
          .getByRole('tooltip')
          .filter({ hasText: messages.unauthorized })
          .filter({ visible: true });
        await expect(tooltip).toHaveCount(1);

        await link.click();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login to Hasta');
        const url = new URL(page.url());
        expect(url.pathname).toBe('/login');
        expect(url.searchParams.get('next')).toBe(action.path);
      });
    }
  });

  test('logged in, each opens its screen', async ({ page }) => {
    await loginAs(page, shopper);
    for (const action of ACTIONS) {
      await test.step(action.name, async () => {
        await page.goto('/');
        const link = heroLink(page, action.name);
        await expect(link).toHaveAttribute('href', action.path);
        await expect(link).not.toHaveAttribute('aria-describedby');

        await link.click();
        await expect(page).toHaveURL(action.path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(action.heading);
      });
    }
  });
});
