import { DEVICE_HEADER, PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from '@hasta/contracts/devices';
import { messages } from '@hasta/contracts/messages';
import type { APIRequestContext, Page } from '@playwright/test';

import { expect, test } from './support/accounts';
import { axeViolations } from './support/axe';
import { TestDevice } from './support/devices';
import { createMerchant } from './support/merchant';
import { pageFor } from './support/wallet';

/**
 * The merchant dashboard's Terminals tab (issue 22): the store owner names a terminal, gets its pairing code
 * (large, with its 10-minute expiry), a device pairs with it, and one click on Remove stops that device.
 */
test.use({ reducedMotion: 'reduce' });

const CODE_PATTERN = new RegExp(`^[${PAIRING_CODE_ALPHABET}]{4} [${PAIRING_CODE_ALPHABET}]{4}$`);

/** Pairs a device with `code` through the API, as a terminal's browser does: its own key, the public half sent. */
async function pairByApi(request: APIRequestContext, code: string): Promise<string> {
  const device = new TestDevice();
  const response = await request.post('/api/devices/pair', { data: { code, public_key: device.publicKey } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { device_token: string }).device_token;
}

/** The code shown in the card, without its middle space. */
async function shownCode(page: Page): Promise<string> {
  const text = (await page.getByTestId('pairing-code').textContent()) ?? '';
  expect(text).toMatch(CODE_PATTERN);
  const code = text.replace(' ', '');
  expect(code).toHaveLength(PAIRING_CODE_LENGTH);
  return code;
}

test('the store owner makes a terminal pairing code and removes the paired terminal in one click', async ({
  browser,
  playwright,
  baseURL,
}) => {
  // A merchant made through the API, a login with its passkey, several axe runs.
  test.slow();
  const merchant = await createMerchant(playwright, baseURL, `Terminal Store ${Date.now()}`);
  const page = await pageFor(browser, baseURL, merchant);
  await page.setViewportSize({ width: 1024, height: 900 });
  await page.goto('/store-dashboard');
  await page.getByRole('tablist', { name: 'Store sections' }).getByRole('tab', { name: 'Terminals' }).click();
  await expect(page.getByText('No terminals yet. Create a pairing code to add one.')).toBeVisible();
  expect(await axeViolations(page), 'Terminals tab, empty, 1024 px').toEqual([]);

  // A name is needed.
  await page.getByRole('button', { name: 'Create pairing code' }).click();
  await expect(page.getByRole('alert').filter({ hasText: messages.fillAllRequired })).toBeVisible();

  await page.getByLabel('Terminal name').fill('Counter 1');
  await page.getByRole('button', { name: 'Create pairing code' }).click();
  const card = page.getByRole('region', { name: 'Pairing code for Counter 1' });
  await expect(card).toBeVisible();
  await expect(card.getByText(/^Expires at .+ \((10:00|9:\d\d) left\)\.$/)).toBeVisible();
  const code = await shownCode(page);
  expect(await axeViolations(page), 'Terminals tab with a code, 1024 px').toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await axeViolations(page), 'Terminals tab with a code, 390 px').toEqual([]);
  // Nothing sticks out sideways at a phone's width (the table scrolls inside its own box).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The terminal pairs with the code; the code then works no more.
  const device = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
  const token = await pairByApi(device, code);
  const again = await device.post('/api/devices/pair', {
    data: { code, public_key: { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) } },
  });
  expect(again.status()).toBe(400);
  expect((await device.get('/api/devices/me', { headers: { [DEVICE_HEADER]: token } })).status()).toBe(200);

  await page.setViewportSize({ width: 1024, height: 900 });
  await page.reload();
  await page.getByRole('tablist', { name: 'Store sections' }).getByRole('tab', { name: 'Terminals' }).click();
  const row = page.getByTestId('terminal-row').filter({ hasText: 'Counter 1' });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(3)).toHaveText('0');

  // One click, no confirmation: the terminal is removed and refused at once.
  await row.getByRole('button', { name: 'Remove Counter 1' }).click();
  await expect(page.getByRole('status').filter({ hasText: messages.deviceRemoved }).last()).toBeVisible();
  await expect(row.getByText(/^Removed /)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Remove Counter 1' })).toHaveCount(0);
  const refused = await device.get('/api/devices/me', { headers: { [DEVICE_HEADER]: token } });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { message: string }).message).toBe(messages.deviceRevoked);
  expect(await axeViolations(page), 'Terminals tab with a removed terminal, 1024 px').toEqual([]);
  await device.dispose();
});
