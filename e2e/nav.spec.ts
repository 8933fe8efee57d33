import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { admin, loginAs, readLocalStorage, shopper, storeOwner } from './support/storage';

const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site' });
const appNav = (page: Page) => page.getByRole('navigation', { name: 'App' });
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

async function background(locator: Locator): Promise<string> {
  return locator.evaluate((element) => getComputedStyle(element).backgroundColor);
}

test.describe('navigation bar', () => {
  test('signed out: the public links and Launch App, no app links', async ({ page }) => {
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
    await expect(page.getByRole('link', { name: 'Launch App' })).toHaveAttribute('href', '/user-dashboard');
    await expect(appNav(page)).toHaveCount(0);
    for (const name of ['Login', 'Admin', 'User Dashboard', 'Palm Register', 'Pay', 'Receive']) {
      await expect(page.locator('header').getByRole('link', { name, exact: true })).toHaveCount(0);
    }
  });

  test('a person: their app links, no Login or Admin', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/');
    const app = {
      'User Dashboard': '/user-dashboard',
      'Palm Register': '/palm-register',
      Pay: '/transfer',
      Receive: '/receive',
      History: '/history',
    };
    for (const [name, href] of Object.entries(app)) {
      await expect(appNav(page).getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(appNav(page).getByRole('link')).toHaveCount(Object.keys(app).length);
    for (const name of ['Login', 'Admin', 'Admin Page', 'Launch App']) {
      await expect(page.locator('header').getByRole('link', { name, exact: true })).toHaveCount(0);
    }
  });

  test('a store owner: the store dashboard and their own wallet, nothing of a person or an admin', async ({
    page,
  }) => {
    await loginAs(page, storeOwner);
    await page.goto('/');
    await expect(appNav(page).getByRole('link', { name: 'Store Dashboard', exact: true })).toHaveAttribute(
      'href',
      '/store-dashboard',
    );
    await expect(appNav(page).getByRole('link', { name: 'My Wallet', exact: true })).toHaveAttribute(
      'href',
      '/user-dashboard',
    );
    await expect(appNav(page).getByRole('link')).toHaveCount(2);
    for (const name of ['Login', 'Admin', 'User Dashboard', 'Palm Register', 'Pay', 'Receive']) {
      await expect(page.locator('header').getByRole('link', { name, exact: true })).toHaveCount(0);
    }
    await expect(page.getByRole('link', { name: 'Store Page' })).toHaveAttribute('href', '/store-dashboard');
  });

  test('an admin: Admin Page and the admin dashboard link only', async ({ page }) => {
    await loginAs(page, admin);
    await page.goto('/');
    await expect(appNav(page).getByRole('link')).toHaveCount(1);
    await expect(appNav(page).getByRole('link', { name: 'Admin', exact: true })).toHaveAttribute(
      'href',
      '/admin',
    );
    await expect(page.getByRole('link', { name: 'Admin Page' })).toHaveAttribute('href', '/admin');
    await expect(page.locator('header').getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
  });

  test('highlights the current path only', async ({ page }) => {
    await loginAs(page, shopper);
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
    // Signed out: no app links, Launch App instead.
    await expect(menu.getByRole('link', { name: 'Pay', exact: true })).toHaveCount(0);
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

  test('signed in as a person, the menu lists their app links', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByRole('link', { name: 'Pay', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'History', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
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
