import { KIOSK_REGISTRATION_BONUS_POINTS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { PALM_CONSENT_NOTICE } from '@hasta/contracts/palm';
import type { Page, PlaywrightWorkerArgs } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, test } from './support/accounts';
import type { Account } from './support/accounts';
import { openTab } from './support/admin';
import { axeViolations } from './support/axe';
import { launchWithPalmCamera } from './support/camera';
import { extractCode, nextMessage } from './support/outbox';
import { newPalmSeed } from './support/palm';
import { thisBrowserTestDevice } from './support/devices';
import { stepUpByApi } from './support/step-up';
import { adminSession, apiSession, pageFor } from './support/wallet';

/**
 * Kiosk mode (issue 22): an admin makes a kiosk pairing code on the Devices tab, the kiosk's tablet pairs
 * at /kiosk, a person signs in there with a code to their phone, registers a palm through Chromium's fake
 * camera (a film of a synthetic palm in the guide box), and is signed out.
 */
test.use({ reducedMotion: 'reduce' });

/** A camera scan: the camera starts, three good looks, the server answers (see palm.spec.ts). */
const SCAN_TIMEOUT_MS = 45_000;
const KIOSK_PLACE = 'Hasta Kiosk, Indiranagar';
const admin = { contact: ADMIN_EMAIL, channel: 'email', password: ADMIN_PASSWORD } as const;

/** On the admin's Devices tab: a pairing code for a device named `name` at the Indiranagar kiosk, as shown. */
async function kioskCodeFromDevicesTab(page: Page, name: string): Promise<string> {
  const section = await openTab(page, 'Devices');
  const select = section.getByLabel('Kiosk', { exact: true });
  const value = await select.locator('option', { hasText: KIOSK_PLACE }).getAttribute('value');
  expect(value).not.toBeNull();
  await select.selectOption(value!);
  await section.getByLabel('Device name (optional)').fill(name);
  await section.getByRole('button', { name: 'Create pairing code' }).click();
  const card = section.getByRole('region', { name: `Pairing code for ${name}` });
  await expect(card.getByText(/^Expires at .+ left\)\.$/)).toBeVisible();
  return ((await card.getByTestId('pairing-code').textContent()) ?? '').replace(' ', '');
}

/** Pairs the kiosk page with `code` and waits for its welcome screen. */
async function pairKiosk(page: Page, code: string): Promise<void> {
  await page.goto('/kiosk');
  await page.getByLabel('Pairing code').fill(code);
  await page.getByRole('button', { name: 'Pair this device' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Register your palm' })).toBeVisible();
  await expect(page.getByText(`Hasta kiosk · ${KIOSK_PLACE}`)).toBeVisible();
}

/** Start, the phone number, the code from the outbox: the person is signed in on the kiosk. */
async function signInOnKiosk(page: Page, account: Account): Promise<void> {
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByLabel('Mobile number').fill(account.contact);
  const message = await nextMessage(page.request, account.contact, () =>
    page.getByRole('button', { name: 'Send code' }).click(),
  );
  await page.getByLabel('6-digit code').fill(extractCode(message.body));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a hand' })).toBeVisible();
}

/** The kiosk's browser holds no one's session. */
async function expectSignedOut(page: Page): Promise<void> {
  await expect.poll(async () => (await page.request.get('/api/auth/session')).status()).toBe(401);
}

test('an admin pairs a kiosk; a person signs in with a code to their phone, registers a palm and is signed out', async ({
  browser,
  playwright,
  baseURL,
  phoneAccount: person,
}) => {
  test.setTimeout(300_000);
  const adminPage = await pageFor(browser, baseURL, admin);
  await adminPage.setViewportSize({ width: 1024, height: 900 });
  await adminPage.goto('/admin');
  // Named for this test: other tests pair devices at the same kiosk.
  const deviceName = `Indiranagar ${test.info().workerIndex}-${Date.now().toString(36)}`;
  const code = await kioskCodeFromDevicesTab(adminPage, deviceName);
  expect(await axeViolations(adminPage), 'Devices tab with a kiosk code, 1024 px').toEqual([]);
  await adminPage.setViewportSize({ width: 390, height: 844 });
  expect(await axeViolations(adminPage), 'Devices tab with a kiosk code, 390 px').toEqual([]);

  const camera = await launchWithPalmCamera(playwright, { seed: newPalmSeed(), identity: 0 }, 'kiosk-palm');
  try {
    const context = await camera.newContext({
      ...(baseURL === undefined ? {} : { baseURL }),
      viewport: { width: 1024, height: 1366 },
      reducedMotion: 'reduce',
    });
    const kiosk = await context.newPage();
    await kiosk.goto('/kiosk');
    await expect(kiosk.getByRole('heading', { level: 1, name: 'Pair this device' })).toBeVisible();
    // No site navigation anywhere on the kiosk.
    await expect(kiosk.getByRole('navigation')).toHaveCount(0);
    await expect(kiosk.getByRole('contentinfo')).toHaveCount(0);
    expect(await axeViolations(kiosk), '/kiosk, unpaired, 1024 px').toEqual([]);
    await pairKiosk(kiosk, code);

    // The privacy notice: what is kept and why, as the consent of /palm-register says.
    await expect(kiosk.getByRole('region', { name: 'What is kept, and why' })).toContainText(
      PALM_CONSENT_NOTICE,
    );
    expect(await axeViolations(kiosk), '/kiosk, welcome, 1024 px').toEqual([]);
    await kiosk.setViewportSize({ width: 390, height: 844 });
    expect(await axeViolations(kiosk), '/kiosk, welcome, 390 px').toEqual([]);
    expect(await kiosk.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // ...and in Hindi.
    await kiosk.getByRole('button', { name: 'हिन्दी' }).click();
    await expect(kiosk.getByRole('heading', { level: 1, name: 'अपनी हथेली पंजीकृत करें' })).toBeVisible();
    expect(await axeViolations(kiosk), '/kiosk, welcome, Hindi, 390 px').toEqual([]);
    await kiosk.getByRole('button', { name: 'English' }).click();
    await kiosk.setViewportSize({ width: 1024, height: 1366 });

    await signInOnKiosk(kiosk, person);
    // Registering one's own palm needs the owner's step-up (issue 21): on a kiosk, the sign-in code to their
    // phone was it, so no second code is asked for.
    await expect(kiosk.getByRole('button', { name: 'Register left hand' })).toBeVisible();
    await expect(kiosk.getByRole('heading', { name: 'Confirm it’s you' })).toHaveCount(0);
    await kiosk.getByRole('button', { name: 'Register left hand' }).click();
    await expect(kiosk.getByRole('heading', { name: 'Registering your left hand' })).toBeVisible();
    await expect(kiosk.getByText(messages.palmConsentRequired)).toBeVisible();
    expect(await axeViolations(kiosk), '/kiosk, consent, 1024 px').toEqual([]);
    await kiosk.getByRole('checkbox', { name: 'I agree' }).check();
    await expect(kiosk.getByLabel('Camera preview with the palm guide box')).toBeVisible();

    // Registered, and signed out at once.
    await expect(kiosk.getByText('Your left hand is registered. You have been signed out.')).toBeVisible({
      timeout: SCAN_TIMEOUT_MS,
    });
    await expectSignedOut(kiosk);
    await expect(kiosk.getByRole('button', { name: 'Start' })).toBeVisible();
    expect(await axeViolations(kiosk), '/kiosk, after an enrolment, 1024 px').toEqual([]);
    await context.close();
  } finally {
    await camera.close();
  }

  // The palm is the person's; the kiosk device has the enrolment on the admin's list.
  const session = await apiSession(playwright, baseURL, person);
  const state = await session.post('/Palm/user/palm-registration-state', { data: {} });
  expect(await state.json()).toEqual({ left_hand_registered: true, right_hand_registered: false });
  // Registered at a kiosk: the kiosk bonus (decision 032).
  const rewards = await session.get('/api/rewards');
  expect(((await rewards.json()) as { points: number }).points).toBe(KIOSK_REGISTRATION_BONUS_POINTS);
  await session.dispose();
  await adminPage.setViewportSize({ width: 1024, height: 900 });
  await adminPage.reload();
  const section = await openTab(adminPage, 'Devices');
  const row = section
    .getByTestId('device-row')
    .filter({ has: adminPage.getByRole('cell', { name: deviceName, exact: true }) });
  await expect(row.getByRole('cell').nth(1)).toHaveText('Kiosk');
  // Enrolments.
  await expect(row.getByRole('cell').nth(5)).toHaveText('1');
  // Opening the kiosk shows its payments: a kiosk takes none.
  await expect(row.getByRole('cell').nth(2)).toHaveText(KIOSK_PLACE);
  await row.getByRole('button', { name: `Payments ${deviceName}` }).click();
  const payments = adminPage.getByRole('dialog', { name: `Payments taken on ${deviceName}` });
  await expect(payments.getByText('No palm payments on this device.')).toBeVisible();
  expect(await axeViolations(adminPage), 'Devices tab, a kiosk opened').toEqual([]);
  await adminPage.context().close();
});

/** A kiosk pairing code made through the API by the admin (for the Indiranagar kiosk, named `name`). */
async function kioskCodeByApi(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  name: string,
): Promise<string> {
  const adminApi = await adminSession(playwright, baseURL);
  const kiosks = (await (await adminApi.get('/api/kiosks')).json()) as {
    kiosks: { id: string; name: string }[];
  };
  const place = kiosks.kiosks.find((kiosk) => kiosk.name === KIOSK_PLACE);
  expect(place).toBeDefined();
  const made = await adminApi.post('/api/devices/pairing-codes', {
    data: { kind: 'kiosk', kiosk_id: place!.id, name },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { code } = (await made.json()) as { code: string };
  await adminApi.dispose();
  return code;
}

test('a person who stops touching the kiosk for 60 s is signed out', async ({
  browser,
  playwright,
  baseURL,
  phoneAccount: person,
}) => {
  test.slow();
  const code = await kioskCodeByApi(playwright, baseURL, 'Idle test kiosk');

  const context = await browser.newContext({
    ...(baseURL === undefined ? {} : { baseURL }),
    viewport: { width: 390, height: 844 },
  });
  const kiosk = await context.newPage();
  // The page's clock is the test's: the 60 s pass without the test waiting them.
  await kiosk.clock.install();
  await pairKiosk(kiosk, code);
  await signInOnKiosk(kiosk, person);
  expect((await kiosk.request.get('/api/auth/session')).status()).toBe(200);

  await kiosk.clock.fastForward(59_000);
  await expect(kiosk.getByRole('heading', { name: 'Choose a hand' })).toBeVisible();
  await kiosk.clock.fastForward(2_000);
  await expect(kiosk.getByText('You were signed out after 60 seconds without a touch.')).toBeVisible();
  await expectSignedOut(kiosk);
  await context.close();
});

test('a kiosk removed by an admin says so, signs no one in, and can be paired again', async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.slow();
  const code = await kioskCodeByApi(playwright, baseURL, 'Removed test kiosk');
  const context = await browser.newContext({
    ...(baseURL === undefined ? {} : { baseURL }),
    viewport: { width: 1024, height: 1366 },
  });
  const kiosk = await context.newPage();
  await pairKiosk(kiosk, code);

  const adminApi = await adminSession(playwright, baseURL);
  const listed = (await (await adminApi.get('/api/devices')).json()) as {
    devices: { id: string; name: string }[];
  };
  const device = listed.devices.find((entry) => entry.name === 'Removed test kiosk');
  expect(device).toBeDefined();
  const revoked = await adminApi.post(`/api/devices/${device!.id}/revoke`);
  expect(revoked.status(), await revoked.text()).toBe(200);
  await adminApi.dispose();

  await kiosk.reload();
  await expect(kiosk.getByRole('alert')).toHaveText(
    'This kiosk is no longer paired. Ask an admin for a new pairing code.',
  );
  await expect(kiosk.getByRole('button', { name: 'Start' })).toHaveCount(0);
  expect(await axeViolations(kiosk), '/kiosk, removed').toEqual([]);
  await kiosk.getByRole('button', { name: 'Pair this kiosk again' }).click();
  await expect(kiosk.getByRole('heading', { level: 1, name: 'Pair this device' })).toBeVisible();
  await context.close();
});

test('the Devices tab names a person’s own browser by their username', async ({
  browser,
  playwright,
  baseURL,
  account,
}) => {
  const session = await apiSession(playwright, baseURL, account);
  await stepUpByApi(session, account.contact);
  await thisBrowserTestDevice(session, 'personal');
  await session.dispose();
  const adminPage = await pageFor(browser, baseURL, admin);
  await adminPage.goto('/admin');
  const section = await openTab(adminPage, 'Devices');
  // Its "belongs to" cell: the person's username (it said "User" and the start of their id).
  const row = section
    .getByTestId('device-row')
    .filter({ has: adminPage.getByRole('cell', { name: account.user.username, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(0)).toHaveText('e2e personal');
  await expect(row.getByRole('cell').nth(1)).toHaveText('Person’s own browser');
  await expect(row.getByRole('cell').nth(2)).toHaveText(account.user.username);
  await adminPage.context().close();
});
