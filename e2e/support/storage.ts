import type { Page } from '@playwright/test';

/** A stored user as the auth flow will write it (spec §3); the session itself is an httpOnly cookie. */
export interface TestUser {
  id: string;
  email: string;
  phone: string | null;
  username: string;
  is_admin: boolean;
  /** The server's role ('user', 'merchant', 'admin'); older entries have none. */
  role?: 'user' | 'merchant' | 'admin';
}

export const shopper: TestUser = {
  id: 'e2e-user-1',
  email: 'asha@e2e.hasta.test',
  phone: '+91 9876543210',
  username: 'asha',
  is_admin: false,
};

export const admin: TestUser = {
  id: 'e2e-admin-1',
  email: 'admin@e2e.hasta.test',
  phone: null,
  username: 'admin',
  is_admin: true,
};

export const storeOwner: TestUser = {
  id: 'e2e-merchant-1',
  email: 'chai@e2e.hasta.test',
  phone: null,
  username: 'chai point',
  is_admin: false,
  role: 'merchant',
};

/** Writes localStorage entries before any page script runs, on the first document load only. */
export async function seedLocalStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await page.addInitScript((values: Record<string, string>) => {
    if (!window.location.protocol.startsWith('http')) return;
    const marker = 'hasta-e2e-seeded';
    if (window.sessionStorage.getItem(marker) !== null) return;
    window.sessionStorage.setItem(marker, '1');
    for (const [key, value] of Object.entries(values)) window.localStorage.setItem(key, value);
  }, entries);
}

/** Logs in the way the app sees it: a stored user record. */
export async function loginAs(page: Page, user: TestUser): Promise<void> {
  await seedLocalStorage(page, { user: JSON.stringify(user) });
}

export async function readLocalStorage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => window.localStorage.getItem(name), key);
}
