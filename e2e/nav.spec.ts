import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { admin, loginAs, readLocalStorage, shopper } from './support/storage';

const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site' });
const appNav = (page: Page) => page.getByRole('navigation', { name: 'App' });
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

async function background(locator: Locator): Promise<string> {
  return locator.evaluate((element) => getComputedStyle(element).backgroundColor);
}

test.describe('navigation bar', () => {
  test('lists every link of the spec', async ({ page }) => {
    await page.goto('/');
    const expected = {
      Home: '/',
      Technology: '/technology',
      Features: '/features',
      Demo: '/demo',
      'About / Contact': '/contact',
    };
    for (const [name, href] of Object.entries(expected)) {
      await expect(siteNav(page).getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    const app = {
      Login: '/login',
      'User Dashboard': '/user-dashboard',
      Admin: '/admin',
      'Palm Register': '/palm-register',
      Pay: '/transfer',
      Receive: '/receive',
    };
    for (const [name, href] of Object.entries(app)) {
      await expect(appNav(page).getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
  });

  test('highlights the current path only', async ({ page }) => {
    await page.goto('/technology');
    const technology = siteNav(page).getByRole('link', { name: 'Technology', exact: true });
    const home = siteNav(page).getByRole('link', { name: 'Home', exact: true });
    const features = siteNav(page).getByRole('link', { name: 'Features', exact: true });

    await expect(technology).toHaveAttribute('aria-current', 'page');
    await expect(home).not.toHaveAttribute('aria-current');
    await expect(page.locator('header [aria-current="page"]:visible')).toHaveCount(1);
    expect(await background(technology)).not.toBe(await background(home));

    await features.click();
    await expect(page).toHaveURL('/features');
    await expect(features).toHaveAttribute('aria-current', 'page');
    await expect(technology).not.toHaveAttribute('aria-current');

    await appNav(page).getByRole('link', { name: 'Pay', exact: true }).click();
    await expect(page).toHaveURL('/transfer');
    await expect(appNav(page).getByRole('link', { name: 'Pay', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.locator('header [aria-current="page"]:visible')).toHaveCount(1);
  });

  test('Home is current only on /', async ({ page }) => {
    await page.goto('/');
    await expect(siteNav(page).getByRole('link', { name: 'Home', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.goto('/demo');
    await expect(siteNav(page).getByRole('link', { name: 'Home', exact: true })).not.toHaveAttribute(
      'aria-current',
    );
  });

  test('logged out: Launch App leads to the user dashboard (and so to login)', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
    const launch = page.getByRole('link', { name: 'Launch App' });
    await expect(launch).toHaveAttribute('href', '/user-dashboard');
    await launch.click();
    await expect(page).toHaveURL('/login?next=%2Fuser-dashboard');
  });

  test('logged in as a user: User Page and Logout', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Launch App' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Admin Page' })).toHaveCount(0);
    await page.getByRole('link', { name: 'User Page' }).click();
    await expect(page).toHaveURL('/user-dashboard');
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  test('logged in as an admin: Admin Page', async ({ page }) => {
    await loginAs(page, admin);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'User Page' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Admin Page' }).click();
    await expect(page).toHaveURL('/admin');
    await expect(h1(page)).toHaveText('Admin Dashboard');
  });

  test('Logout clears the stored login, tells the server and goes to /login', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/user-dashboard');
    await page.evaluate(() => window.localStorage.setItem('session', '{"active":true}'));

    const logoutCall = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/auth/logout',
    );
    await page.getByRole('button', { name: 'Logout' }).click();

    expect((await logoutCall).method()).toBe('POST');
    await expect(page).toHaveURL('/login');
    await expect(h1(page)).toHaveText('Login to Hasta');
    await expect(page.getByRole('link', { name: 'Launch App' })).toBeVisible();
    expect(await readLocalStorage(page, 'user')).toBeNull();
    expect(await readLocalStorage(page, 'session')).toBeNull();
  });
});

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('opens with the toggle, navigates and closes', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Mobile' });

    await expect(siteNav(page)).toBeHidden();
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menuId = await toggle.getAttribute('aria-controls');
    expect(menuId).not.toBeNull();
    await expect(page.locator(`#${menuId ?? 'missing'}`)).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Technology', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Pay', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Launch App' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await menu.getByRole('link', { name: 'Features', exact: true }).click();
    await expect(page).toHaveURL('/features');
    await expect(h1(page)).toHaveText('Features');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
  });

  test('Escape closes the menu and returns focus to the toggle', async ({ page }) => {
    await page.goto('/demo');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
  });
});
