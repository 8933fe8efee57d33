import { PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Browser, Page } from '@playwright/test';

import { expect, registerAccount, signIn, test } from './support/accounts';
import { launchWithTestPatternCamera } from './support/camera';
import { createMerchant } from './support/merchant';
import { stepUpByApi } from './support/step-up';
import { dashboardBalance } from './support/palm';
import { adminSession, apiSession, giveValue, inr } from './support/wallet';

/**
 * A scanner that only takes a palm (issue 27). Chromium's fake camera without a film shows its own test
 * pattern (a green screen with a turning disc and a frame counter): lit, contrasted and sharp, so it used to
 * pass for a palm. Now every look is refused with a hint, nothing is captured, and the demo (meant for a
 * device without a camera) is not offered beside a live camera. Before a palm payment the payer reads what
 * they pay and to whom, on /receive and at Accept Palm.
 */

const NOT_A_PALM = 'That does not look like a palm: hold your open palm inside the box.';
/** Looks at the camera frame after which the test pattern has had every chance to be taken (3 are needed). */
const LOOKS = 25;
const LOOK_TIMEOUT_MS = 60_000;

const preview = (page: Page) => page.locator('[data-looks]');

/** The scanner has looked LOOKS times at the pattern, said it is no palm, and captured nothing. */
async function expectRefused(page: Page): Promise<void> {
  await expect(page.getByTestId('palm-feedback')).toHaveText(NOT_A_PALM, { timeout: LOOK_TIMEOUT_MS });
  await expect
    .poll(async () => Number(await preview(page).getAttribute('data-looks')), { timeout: LOOK_TIMEOUT_MS })
    .toBeGreaterThanOrEqual(LOOKS);
  await expect(page.getByText(`Captured 0 of ${PALM_SCAN_FRAMES}`)).toBeVisible();
  await expect(page.getByTestId('palm-feedback')).toHaveText(NOT_A_PALM);
  // A camera is here: the demo's "No camera" notice is not.
  await expect(page.getByText(/No camera: this simulates a scan/)).toHaveCount(0);
  await expect(page.getByRole('region', { name: /Demo mode/ })).toHaveCount(0);
}

async function pageIn(camera: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await camera.newContext(baseURL === undefined ? {} : { baseURL });
  return context.newPage();
}

test.describe('the scanner takes only a palm', () => {
  test('registration: the fake camera’s test pattern is refused with a hint and nothing is registered', async ({
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(180_000);
    const camera = await launchWithTestPatternCamera(playwright);
    try {
      const page = await pageIn(camera, baseURL);
      await signIn(page, account);
      await stepUpByApi(page.request, account.contact);
      await page.goto('/palm-register');
      await page.getByRole('button', { name: 'Register Right Hand' }).click();
      await page.getByRole('checkbox', { name: 'I agree' }).check();
      await expect(page.getByLabel('Camera preview with the palm guide box')).toBeVisible();
      await expectRefused(page);
      await expect(page.getByText('Registration Complete!')).toHaveCount(0);
      const state = await page.request.post('/Palm/user/palm-registration-state', { data: {} });
      expect(await state.json()).toEqual({ left_hand_registered: false, right_hand_registered: false });
    } finally {
      await camera.close();
    }
  });

  test('/receive: the payer reads “Pay ₹200.00 to Asha K.”, and the pattern pays nothing', async ({
    playwright,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const receiver = await registerAccount(request, { username: 'Asha Kumar' });
    await request.dispose();
    const camera = await launchWithTestPatternCamera(playwright);
    try {
      const page = await pageIn(camera, baseURL);
      await signIn(page, receiver);
      // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
      await stepUpByApi(page.request, receiver.contact);
      await page.goto('/receive');
      await page.getByLabel('Expected Amount (INR)').fill('200');
      await page.getByRole('button', { name: 'Confirm Receive' }).click();
      await expect(page.getByTestId('pay-prompt')).toHaveText(`Pay ${inr(200)} to Asha K.`);
      await expect(page.getByText('Payer: hold your open palm inside the box to pay.')).toBeVisible();
      await expectRefused(page);
      await expect(page.getByRole('button', { name: 'Return' })).toBeVisible();
      const session = await apiSession(playwright, baseURL, receiver);
      expect(await dashboardBalance(session, receiver)).toBe('0.00');
      await session.dispose();
    } finally {
      await camera.close();
    }
  });

  test('Accept Palm: the customer reads the amount and the store before paying; the pattern pays nothing', async ({
    playwright,
    baseURL,
    account: customer,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, customer.user.id, 500);
    await admin.dispose();
    const merchant = await createMerchant(playwright, baseURL, 'Pattern Dosa Corner');
    const camera = await launchWithTestPatternCamera(playwright);
    try {
      const page = await pageIn(camera, baseURL);
      await signIn(page, merchant);
      // Accept Palm makes this browser a terminal of the store on its first scan, after the owner's step-up.
      await stepUpByApi(page.request, merchant.contact);
      await page.goto('/store-dashboard');
      await page.getByRole('tab', { name: 'Accept Palm' }).click();
      await page.getByRole('button', { name: 'Process Payment' }).click();
      const form = page.getByRole('form', { name: 'Process Transaction' });
      await form.getByLabel('Amount (INR)').fill('150');
      await form.getByRole('button', { name: 'Continue to Palm Scan' }).click();
      await expect(page.getByTestId('pay-prompt')).toHaveText(`Pay ${inr(150)} to Pattern Dosa Corner`);
      await expectRefused(page);
      await expect(page.getByTestId('store-balance')).toHaveText(inr(0));
    } finally {
      await camera.close();
    }
    const session = await apiSession(playwright, baseURL, customer);
    expect(await dashboardBalance(session, customer)).toBe('500.00');
    await session.dispose();
  });
});
