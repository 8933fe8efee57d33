import { expect } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';

import { passSecondFactor } from './passkeys';

/** The admin the e2e server bootstraps (see playwright.config.ts). */
const ADMIN = { email: 'admin@e2e.hasta.test', password: 'e2e-admin-password' } as const;

/** Map tiles come from this host; tests never reach the internet. */
export const TILE_URL_PATTERN = 'https://tile.openstreetmap.org/**';

/** A 1×1 transparent PNG, served as every map tile when a test wants the map to load. */
const BLANK_TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Tiles fail as they do offline. */
export async function failMapTiles(page: Page): Promise<void> {
  await page.route(TILE_URL_PATTERN, (route) => route.abort('internetdisconnected'));
}

/** Tiles load (blank), as they would online. */
export async function serveBlankMapTiles(page: Page): Promise<void> {
  await page.route(TILE_URL_PATTERN, (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: BLANK_TILE }),
  );
}

/** A bearer token for the admin-only list endpoints. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/auth/login', { data: ADMIN });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as {
    token: string;
    second_factor?: 'passkey_registration' | 'passkey' | null;
  };
  // The admin's session is pending until its passkey (issue 23); the cookie and the token are one session.
  await passSecondFactor(request, ADMIN.email, body.second_factor);
  return body.token;
}

/** GET an admin list as the admin. */
export async function adminList<T>(request: APIRequestContext, path: string): Promise<T> {
  const token = await adminToken(request);
  const response = await request.get(path, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** A value no other test (or earlier run) uses. */
export function unique(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
