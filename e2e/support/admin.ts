import { readFile } from 'node:fs/promises';

import { adminUsersResponseSchema } from '@hasta/contracts/auth';
import type { AdminUserRow } from '@hasta/contracts/auth';
import { expect } from '@playwright/test';
import type { APIRequestContext, Browser, Download, Locator, Page } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD } from './accounts';
import { pageFor } from './wallet';

/** Helpers for the admin dashboard tests. */

/** The newest toast with this text (react-hot-toast keeps earlier ones while they fade). */
export const toast = (page: Page, text: string): Locator =>
  page.getByRole('status').filter({ hasText: text }).last();

/** A page of its own, signed in as the bootstrapped admin, on /admin. */
export async function adminDashboard(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const page = await pageFor(browser, baseURL, {
    channel: 'email',
    contact: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  await page.goto('/admin');
  return page;
}

/** Opens a tab of the dashboard and returns its section (a region named by its heading). */
export async function openTab(page: Page, name: string): Promise<Locator> {
  await page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { name, exact: true }).click();
  return page.getByRole('region', { name, exact: true });
}

/** Opens a Users row's Actions menu (its Register palm links and Reset password). */
export async function openRowActions(row: Locator): Promise<void> {
  await row.locator('summary').click();
}

/** Sends one of the public site's forms through the API, as its page does. */
export async function submitPublicForm(
  request: APIRequestContext,
  path: '/api/applicants' | '/api/inquiry' | '/api/vendor-registration' | '/api/kiosk-applications',
  data: Record<string, unknown>,
): Promise<void> {
  const response = await request.post(path, { data });
  expect(response.status(), await response.text()).toBe(201);
}

/** GET /api/auth/users as the admin (for expected values, e.g. exact creation times). */
export async function listUsers(admin: APIRequestContext, q: string): Promise<AdminUserRow[]> {
  const response = await admin.get(`/api/auth/users?${new URLSearchParams({ q, limit: '500' })}`);
  expect(response.status(), await response.text()).toBe(200);
  return adminUsersResponseSchema.parse(await response.json()).users;
}

/** The text of a finished download. */
export async function downloadedText(download: Download): Promise<string> {
  const path = await download.path();
  return readFile(path, 'utf8');
}
