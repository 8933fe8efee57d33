import { messages } from '@hasta/contracts/messages';
import { parsePaymentUri } from '@hasta/contracts/qr';
import type { Browser, Page } from '@playwright/test';

import { expect, registerAccount, signIn, test } from './support/accounts';
import type { Account } from './support/accounts';
import { axeViolations } from './support/axe';
import { launchWithQrCamera } from './support/camera';
import { createMerchant } from './support/merchant';
import { extractCode, latestMessageId, waitForMessage } from './support/outbox';
import { loginAs, shopper } from './support/storage';
import { adminSession, giveValue, inr } from './support/wallet';

/** Scanning, resolving and the page change take a moment on a loaded machine. */
const SCAN_TIMEOUT_MS = 30_000;

async function signedInPage(
  browser: Browser,
  baseURL: string | undefined,
  account: Account | { contact: string; channel: 'email'; password: string },
) {
  const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

/** The /transfer code step, through the dev outbox, up to "Money sent successfully!". */
async function confirmWithOtp(page: Page, payer: Account): Promise<void> {
  const afterId = await latestMessageId(page.request, payer.contact);
  await page.getByRole('button', { name: 'Send Money' }).click();
  await expect(page.getByRole('heading', { name: 'Verify OTP' })).toBeVisible();
  const email = await waitForMessage(page.request, payer.contact, afterId);
  await page.getByLabel('One-time code').fill(extractCode(email.body));
  await page.getByRole('button', { name: 'Verify & Send Money' }).click();
  await expect(page.getByRole('status', { name: messages.moneySent })).toBeVisible();
  await expect(page).toHaveURL('/user-dashboard');
}

test.describe('Paying by QR code', () => {
  test('a store’s code, downloaded and printed, is paid by a user through the camera: /qr-scan, /transfer prefilled, OTP, money in the store, scan counted', async ({
    page,
    playwright,
    baseURL,
    account: payer,
  }) => {
    test.setTimeout(240_000);
    const merchant = await createMerchant(playwright, baseURL, 'Tea Stall');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 100);
    await admin.dispose();

    // The merchant makes a code for ₹75.25.
    await signIn(page, merchant);
    await page.goto('/store-dashboard');
    await page.getByRole('tab', { name: 'Generate QR' }).click();
    await expect(page.getByText('No QR codes yet. Generate one above.')).toBeVisible();
    const form = page.getByRole('form', { name: 'New payment QR code' });
    await form.getByLabel('Amount (INR, optional)').fill('75.255');
    await form.getByRole('button', { name: 'Generate QR' }).click();
    await expect(form.getByRole('alert')).toHaveText(messages.amountTooPrecise);
    await form.getByLabel('Amount (INR, optional)').fill('75.25');
    await form.getByLabel('Label (optional)').fill('Counter 2');
    await form.getByRole('button', { name: 'Generate QR' }).click();
    await expect(page.getByText(messages.qrCreated)).toBeVisible();
    const card = page.getByRole('region', { name: 'Tea Stall' });
    await expect(
      card.getByRole('img', { name: `Payment QR code for Tea Stall, ${inr(75.25)}` }),
    ).toBeVisible();
    await expect(card).toContainText(`Pay ${inr(75.25)}`);
    await expect(card).toContainText('Counter 2');
    await expect(page.getByTestId('shown-qr-scans')).toHaveText('0');
    await expect(page.getByTestId('store-qr-codes')).toHaveText('1');
    expect(await axeViolations(page), 'Generate QR tab').toEqual([]);
    const uri = (await page.getByTestId('shown-qr-uri').textContent()) ?? '';
    expect(parsePaymentUri(uri)).toMatchObject({
      payee: { kind: 'store', id: merchant.merchantId },
      payee_name: 'Tea Stall',
      amount_paise: 7_525n,
    });

    // Download PNG gives a PNG file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PNG' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^hasta-qr-[0-9a-f]{8}\.png$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const png = Buffer.concat(chunks);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.length).toBeGreaterThan(1_000);

    // Print prints the code's card alone.
    await page.evaluate(() => {
      const record = window as unknown as { printedWith?: string | undefined };
      window.print = () => {
        record.printedWith = document.body.dataset['printing'];
      };
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printedWith?: string }).printedWith)).toBe('qr');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('tablist')).toBeHidden();
    await expect(card.getByRole('img')).toBeVisible();
    await page.emulateMedia({ media: 'screen' });

    // The payer's phone camera films the code.
    const camera = await launchWithQrCamera(playwright, uri, 'store-qr');
    try {
      const payerPage = await signedInPage(camera, baseURL, payer);
      await payerPage.goto('/qr-scan');
      await expect(payerPage.getByRole('heading', { name: 'Scan QR Code', level: 1 })).toBeVisible();
      await expect(payerPage).toHaveURL('/transfer', { timeout: SCAN_TIMEOUT_MS });
      await expect(
        payerPage.getByText('Paying Tea Stall (store) from a scanned QR code, for a fixed amount.'),
      ).toBeVisible();
      await expect(payerPage.getByRole('button', { name: 'QR Scan' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      const email = payerPage.getByLabel('Receiver Email (Optional)');
      await expect(email).toHaveValue(merchant.contact);
      await expect(email).toHaveAttribute('readonly', '');
      const amount = payerPage.getByLabel('Amount (INR)');
      await expect(amount).toHaveValue('75.25');
      await expect(amount).toHaveAttribute('readonly', '');
      expect(await axeViolations(payerPage), '/transfer prefilled from a code').toEqual([]);
      await confirmWithOtp(payerPage, payer);
      await expect(payerPage.getByTestId('balance')).toHaveText(inr(24.75));
    } finally {
      await camera.close();
    }

    // The store has the money and the scan.
    await page.reload();
    await expect(page.getByTestId('store-balance')).toHaveText(inr(75.25));
    await expect(page.getByTestId('store-qr-scans')).toHaveText('1');
    const payments = page.getByRole('table', { name: 'Payments received' });
    await expect(payments.getByRole('row').nth(1)).toContainText(inr(75.25));
    await expect(payments.getByRole('row').nth(1)).toContainText(payer.contact);
    await page.getByRole('tab', { name: 'Generate QR' }).click();
    const row = page
      .getByRole('table', { name: 'Your QR codes' })
      .getByRole('row')
      .filter({ hasText: 'Counter 2' });
    await expect(row.getByRole('cell').nth(2)).toHaveText('1');
  });

  test('/receive shows a person’s own code; another person pays it from /transfer’s QR mode; one’s own code is refused', async ({
    page,
    playwright,
    baseURL,
    account: receiver,
  }) => {
    test.setTimeout(240_000);
    const payerRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const payer = await registerAccount(payerRequest, { channel: 'email' });
    await payerRequest.dispose();
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 100);
    await admin.dispose();

    // The receiver's own code, then one for ₹25.
    await signIn(page, receiver);
    await page.goto('/receive');
    const plain = page.getByRole('img', { name: `Your payment QR code: pays ${receiver.user.username}` });
    await expect(plain).toBeVisible();
    const own = (await (await page.request.get('/api/qr/receive')).json()) as { uri: string };
    await expect(plain).toHaveAttribute('data-qr-text', own.uri);
    expect(await axeViolations(page), '/receive with its code').toEqual([]);
    await page.getByLabel('Expected Amount (INR)').fill('25');
    await page.getByRole('button', { name: 'Confirm Receive' }).click();
    const forAmount = page.getByRole('img', {
      name: `Payment QR code for ${inr(25)}: pays ${receiver.user.username}`,
    });
    await expect(forAmount).toBeVisible();
    const uri = (await forAmount.getAttribute('data-qr-text')) ?? '';
    expect(parsePaymentUri(uri)).toMatchObject({
      payee: { kind: 'user', id: receiver.user.id },
      amount_paise: 2_500n,
    });

    const camera = await launchWithQrCamera(playwright, uri, 'receive-qr');
    try {
      // Scanning one's own code is refused, with a way to scan again.
      const ownPage = await signedInPage(camera, baseURL, receiver);
      await ownPage.goto('/qr-scan');
      await expect(ownPage.getByRole('main').getByRole('alert')).toHaveText(messages.ownQr, {
        timeout: SCAN_TIMEOUT_MS,
      });
      await expect(ownPage.getByRole('button', { name: 'Scan again' })).toBeVisible();
      await ownPage.context().close();

      // The payer opens Send Money, switches to QR Scan, and the same scanner fills the form.
      const payerPage = await signedInPage(camera, baseURL, payer);
      await payerPage.goto('/transfer');
      await payerPage.getByRole('button', { name: 'QR Scan' }).click();
      const banner = payerPage.getByText(
        `Paying ${receiver.user.username} from a scanned QR code, for a fixed amount.`,
      );
      await expect(banner).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
      await expect(payerPage.getByLabel('Receiver Email (Optional)')).toHaveValue(receiver.contact);
      await expect(payerPage.getByLabel('Amount (INR)')).toHaveValue('25.00');
      // Scan another code: the camera opens again and reads the same code.
      await payerPage.getByRole('button', { name: 'Scan another code' }).click();
      await expect(payerPage.getByRole('button', { name: 'Send Money' })).toHaveCount(0);
      await expect(banner).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
      await confirmWithOtp(payerPage, payer);
      await expect(payerPage.getByTestId('balance')).toHaveText(inr(75));
    } finally {
      await camera.close();
    }
    await page.goto('/user-dashboard');
    await expect(page.getByTestId('balance')).toHaveText(inr(25));
  });

  test('without a camera, /qr-scan says so and offers to try again; logged out, it asks for a login', async ({
    page,
  }) => {
    await page.goto('/qr-scan');
    await expect(page.getByText(messages.unauthorized)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/login?next=%2Fqr-scan',
    );

    await loginAs(page, shopper);
    await page.goto('/qr-scan');
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(messages.cameraUnavailable);
    await expect(page.getByRole('button', { name: 'Try the camera again' })).toBeVisible();
    expect(await axeViolations(page), '/qr-scan without a camera').toEqual([]);
  });
});
