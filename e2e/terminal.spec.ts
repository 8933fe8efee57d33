import type { Browser, Locator, Page } from '@playwright/test';

import { messages } from '@hasta/contracts/messages';
import { expect, signIn, test } from './support/accounts';
import { axeViolations } from './support/axe';
import { launchWithPalmCamera } from './support/camera';
import { TestDevice, listDevices, terminalPairingCode } from './support/devices';
import { createMerchant } from './support/merchant';
import { extractCode, nextMessage } from './support/outbox';
import { dashboardBalance, newPalmSeed, registerPalmByApi } from './support/palm';
import { adminSession, apiSession, giveValue, inr } from './support/wallet';

/**
 * Terminal mode (issue 22) with Chromium's fake camera filming a customer's registered palm: the store owner
 * makes a pairing code, the counter's browser pairs with it at /terminal and takes palm payments; a payment
 * whose answer is lost (network gone, then a reload) is taken once; a revoked terminal is refused.
 */

/** A camera scan takes a few seconds when idle; the bound is for a busy machine. */
const SCAN_TIMEOUT_MS = 60_000;

async function pageIn(camera: Browser, baseURL: string | undefined, width = 1024): Promise<Page> {
  const context = await camera.newContext({
    ...(baseURL === undefined ? {} : { baseURL }),
    viewport: { width, height: 900 },
  });
  return context.newPage();
}

/**
 * Waits for `shown` while the palm is scanned; a scan the engine did not recognise (a synthetic palm's rare
 * false reject: the server answered, nothing was paid) is scanned again with Try Again, a few times at most.
 */
async function scanUntil(page: Page, shown: Locator): Promise<void> {
  const tryAgain = page.getByRole('button', { name: 'Try Again' });
  for (let attempt = 0; attempt < 4; attempt += 1) {
    await expect(shown.or(tryAgain)).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
    if (await shown.isVisible()) return;
    await tryAgain.click();
  }
  await expect(shown).toBeVisible();
}

/** Types `amount` on the terminal's pad and starts the palm scan. */
async function charge(page: Page, amount: string): Promise<void> {
  const pad = page.getByRole('group', { name: 'Amount keypad' });
  for (const key of amount) {
    await pad.getByRole('button', { name: key === '.' ? 'Decimal point' : key, exact: true }).click();
  }
  await expect(page.getByTestId('terminal-amount')).toHaveText(`₹${amount}`);
  await page.getByRole('button', { name: /^Take ₹.* by palm$/ }).click();
}

test.describe('Terminal mode (/terminal)', () => {
  test('a store terminal paired with a code from the merchant dashboard takes palm payments, once each through a lost network and a reload, until it is revoked', async ({
    playwright,
    baseURL,
    account: customer,
  }) => {
    test.setTimeout(420_000);
    const palm = { seed: newPalmSeed(), identity: 0 };
    const customerSession = await apiSession(playwright, baseURL, customer);
    await registerPalmByApi(customerSession, customer, palm, 'left');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, customer.user.id, 100);
    await admin.dispose();
    const store = await createMerchant(playwright, baseURL, 'Counter Chai');
    const owner = await apiSession(playwright, baseURL, store);

    // The customer holds out their palm for each payment: a film of 200 captures (not the default 6, which loop
    // every 2.4 s), so each scan is a new capture, as a real hand's is, not a copy the replay guard refuses.
    const camera = await launchWithPalmCamera(
      playwright,
      { ...palm, width_px: 320, height_px: 240, frames: 400, framesPerSample: 2 },
      'terminal-palm',
    );
    try {
      // The owner makes a pairing code on the merchant dashboard's Terminals tab.
      const dashboard = await pageIn(camera, baseURL);
      await signIn(dashboard, store);
      await dashboard.goto('/store-dashboard');
      const terminalsTab = dashboard.getByRole('tablist', { name: 'Store sections' }).getByRole('tab', {
        name: 'Terminals',
      });
      await terminalsTab.click();
      await dashboard.getByLabel('Terminal name').fill('Front counter');
      await dashboard.getByRole('button', { name: 'Create pairing code' }).click();
      // As read across the counter: "ABCD EFGH".
      const code = (await dashboard.getByTestId('pairing-code').textContent()) ?? '';
      expect(code).toMatch(/^[A-Z0-9]{4} [A-Z0-9]{4}$/);

      const page = await pageIn(camera, baseURL);
      // Unpaired: the pairing screen, and no site navigation anywhere.
      await page.goto('/terminal');
      await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
      await expect(page.getByRole('navigation')).toHaveCount(0);
      expect(await axeViolations(page), '/terminal pairing').toEqual([]);
      await page.getByLabel('Pairing code').fill('ABC');
      await page.getByRole('button', { name: 'Pair this device' }).click();
      await expect(page.getByRole('alert')).toHaveText('Enter the 8-character pairing code.');
      await page.getByLabel('Pairing code').fill(code.toLowerCase());
      await page.getByRole('button', { name: 'Pair this device' }).click();
      await expect(page.getByTestId('terminal-store')).toHaveText('Counter Chai');
      await expect(page.getByText('No payments taken on this terminal yet.')).toBeVisible();
      // The code was single use.
      const again = await owner.post('/api/devices/pair', {
        data: { code, public_key: new TestDevice().publicKey },
      });
      expect(again.status()).toBe(400);
      expect(await axeViolations(page), '/terminal amount').toEqual([]);

      // A payment of ₹25: the customer's palm pays, the result and the history say so.
      await charge(page, '25');
      await expect(page.getByTestId('terminal-prompt')).toHaveText(`Payer: pay ${inr(25)} to Counter Chai`);
      await scanUntil(page, page.getByTestId('terminal-result'));
      await expect(page.getByTestId('terminal-result')).toContainText(`Payment received ${inr(25)}`);
      const history = page.getByTestId('terminal-history-list');
      await expect(history.getByRole('listitem')).toHaveCount(1);
      await expect(history).toContainText(inr(25));
      expect(await axeViolations(page), '/terminal result').toEqual([]);
      expect(await dashboardBalance(customerSession, customer)).toBe('75.00');

      // ₹15: the answer is lost (the server took it, the network dropped) and the terminal says so; the
      // page is reloaded before its retries get through. The payer scans again under the same key: paid once.
      await page.getByRole('button', { name: 'Next payment' }).click();
      let cut = true;
      let reachedServer = false;
      await page.route('**/api/transaction', async (route) => {
        if (!cut) return route.continue();
        if (!reachedServer) {
          // The server takes the payment; its answer never reaches the terminal.
          const taken = await route.fetch();
          // Not recognised (nothing paid): that answer arrives, and the palm is scanned again.
          if (taken.status() !== 200) return route.fulfill({ response: taken });
          reachedServer = true;
        }
        return route.abort('internetdisconnected');
      });
      await charge(page, '15');
      await scanUntil(page, page.getByText('No network.', { exact: false }));
      expect(reachedServer).toBe(true);
      expect(await dashboardBalance(customerSession, customer)).toBe('60.00');
      await page.reload();
      cut = false;
      await expect(page.getByText(`A payment of ${inr(15)} was still being sent`)).toBeVisible();
      await scanUntil(page, page.getByTestId('terminal-result'));
      await expect(page.getByTestId('terminal-result')).toContainText(`Payment received ${inr(15)}`);
      await expect(history.getByRole('listitem')).toHaveCount(2);
      expect(await dashboardBalance(customerSession, customer)).toBe('60.00');
      await page.unroute('**/api/transaction');

      // ₹5: the answer is lost and the network stays down; when it is back the terminal sends the same
      // payment again by itself: paid once.
      await page.getByRole('button', { name: 'Next payment' }).click();
      let lost = false;
      await page.route('**/api/transaction', async (route) => {
        if (lost) return route.continue();
        const taken = await route.fetch();
        if (taken.status() !== 200) return route.fulfill({ response: taken });
        lost = true;
        await page.context().setOffline(true);
        return route.abort('internetdisconnected');
      });
      await charge(page, '5');
      await scanUntil(page, page.getByText('No network.', { exact: false }));
      await expect(page.getByRole('button', { name: 'Retry now' })).toBeVisible();
      expect(await dashboardBalance(customerSession, customer)).toBe('55.00');
      await page.context().setOffline(false);
      await scanUntil(page, page.getByTestId('terminal-result'));
      await expect(page.getByTestId('terminal-result')).toContainText(`Payment received ${inr(5)}`);
      await page.unroute('**/api/transaction');
      await expect(history.getByRole('listitem')).toHaveCount(3);
      expect(await dashboardBalance(customerSession, customer)).toBe('55.00');

      // The owner sees the terminal and its 3 payments on the Terminals tab, and removes it in one click: its
      // next payment is refused.
      const terminal = (await listDevices(owner)).find((device) => device.name === 'Front counter');
      expect(terminal).toMatchObject({ kind: 'terminal', revoked_at: null, payment_count: 3 });
      await dashboard.reload();
      await terminalsTab.click();
      const row = dashboard.getByTestId('terminal-row').filter({ hasText: 'Front counter' });
      await expect(row.getByRole('cell').nth(3)).toHaveText('3');
      await row.getByRole('button', { name: 'Remove Front counter' }).click();
      await expect(row.getByText(/^Removed /)).toBeVisible();
      await page.getByRole('button', { name: 'Next payment' }).click();
      await charge(page, '7');
      await expect(page.getByRole('alert')).toHaveText(
        'This terminal is no longer paired with the store. Ask the store owner for a new pairing code.',
        { timeout: SCAN_TIMEOUT_MS },
      );
      expect(await dashboardBalance(customerSession, customer)).toBe('55.00');
      // After a reload too: the revoked terminal cannot take a payment.
      await page.reload();
      await expect(page.getByRole('alert')).toHaveText(
        'This terminal is no longer paired with the store. Ask the store owner for a new pairing code.',
      );
      await page.getByRole('button', { name: 'Forget this pairing' }).click();
      await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
    } finally {
      await camera.close();
    }
    await owner.dispose();
    await customerSession.dispose();
  });

  test('a payment above the palm limit waits for the payer’s code, which the terminal alone confirms', async ({
    playwright,
    baseURL,
    phoneAccount: payer,
  }) => {
    test.setTimeout(300_000);
    const palm = { seed: newPalmSeed(), identity: 0 };
    const payerSession = await apiSession(playwright, baseURL, payer);
    await registerPalmByApi(payerSession, payer, palm, 'right');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 8000);
    await admin.dispose();
    const store = await createMerchant(playwright, baseURL, 'Counter Jewellers');
    const owner = await apiSession(playwright, baseURL, store);
    const code = await terminalPairingCode(owner);
    await owner.dispose();
    const camera = await launchWithPalmCamera(
      playwright,
      { ...palm, width_px: 320, height_px: 240, frames: 400, framesPerSample: 2 },
      'terminal-code',
    );
    try {
      // The terminal holds no person's session: only its device credential.
      const page = await pageIn(camera, baseURL);
      await page.goto('/terminal');
      await page.getByLabel('Pairing code').fill(code);
      await page.getByRole('button', { name: 'Pair this device' }).click();
      await expect(page.getByTestId('terminal-store')).toHaveText('Counter Jewellers');
      // ₹6,000 is above the palm limit: a code goes to the payer's phone, and the terminal asks for it.
      await charge(page, '6000');
      const codeStep = page.getByText(messages.palmCodeSentPhone);
      const sent = await nextMessage(payerSession, payer.contact, () => scanUntil(page, codeStep));
      expect(await dashboardBalance(payerSession, payer)).toBe('8000.00');
      expect(await axeViolations(page), '/terminal code step').toEqual([]);
      await page.getByLabel('Payer’s 6-digit code').fill(extractCode(sent.body));
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await expect(page.getByTestId('terminal-result')).toContainText(`Payment received ${inr(6000)}`);
      await expect(page.getByTestId('terminal-history-list').getByRole('listitem')).toHaveCount(1);
    } finally {
      await camera.close();
    }
    expect(await dashboardBalance(payerSession, payer)).toBe('2000.00');
    await payerSession.dispose();
  });

  for (const width of [390, 1024]) {
    test(`axe finds nothing on /terminal at ${width} px, in English and Hindi, and nothing overflows`, async ({
      playwright,
      baseURL,
    }) => {
      test.setTimeout(240_000);
      const store = await createMerchant(playwright, baseURL, `Width ${width} Sweets`);
      const owner = await apiSession(playwright, baseURL, store);
      const code = await terminalPairingCode(owner);
      await owner.dispose();
      const camera = await launchWithPalmCamera(
        playwright,
        { seed: newPalmSeed(), identity: 0 },
        `w${width}`,
      );
      try {
        const page = await pageIn(camera, baseURL, width);
        await page.goto('/terminal');
        await page.getByLabel('Pairing code').fill(code);
        await page.getByRole('button', { name: 'Pair this device' }).click();
        await expect(page.getByTestId('terminal-store')).toHaveText(`Width ${width} Sweets`);
        const overflow = () =>
          page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(await overflow()).toBeLessThanOrEqual(0);
        expect(await axeViolations(page), `/terminal at ${width} px`).toEqual([]);

        await page.getByLabel('Language').selectOption('hi');
        await expect(page.getByText('इस टर्मिनल के पिछले भुगतान')).toBeVisible();
        await page.getByRole('group', { name: 'राशि का कीपैड' }).getByRole('button', { name: '9' }).click();
        await expect(page.getByRole('button', { name: /हथेली से .* लें/ })).toBeEnabled();
        expect(await overflow()).toBeLessThanOrEqual(0);
        expect(await axeViolations(page), `/terminal in Hindi at ${width} px`).toEqual([]);
        expect(await page.evaluate(() => window.__missingTranslations ?? [])).toEqual([]);
        // The payment step (the scanner) in Hindi too.
        await page.getByRole('button', { name: /हथेली से .* लें/ }).click();
        await expect(page.getByTestId('terminal-prompt')).toBeVisible();
        expect(await overflow()).toBeLessThanOrEqual(0);
        expect(await axeViolations(page), `/terminal scan step in Hindi at ${width} px`).toEqual([]);
      } finally {
        await camera.close();
      }
    });
  }
});
