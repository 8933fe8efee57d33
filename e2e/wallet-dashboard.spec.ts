import { messages } from '@hasta/contracts/messages';

import { expect, registerAccount, signIn, test } from './support/accounts';
import { axeViolations } from './support/axe';
import { formAlert } from './support/auth-ui';
import { stepUpByApi } from './support/step-up';
import { readLocalStorage } from './support/storage';
import { adminSession, apiSession, apiTransfer, giveValue, inr, pageFor } from './support/wallet';

test.describe('User dashboard, history and receive', () => {
  test('balance show/hide, Recent History with - and +, tabs, consent, rewards', async ({
    browser,
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(120_000);
    const other = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const receiver = await registerAccount(other, { channel: 'email' });
    await other.dispose();
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, account.user.id, 1000);
    await admin.dispose();
    const sender = await apiSession(playwright, baseURL, account);
    await apiTransfer(sender, account, { receiverEmail: receiver.contact }, 250);
    // Both payments get their entry in the verifiable log within a log round.
    let hashes: string[] = [];
    await expect
      .poll(async () => {
        const history = (await (await sender.get('/api/dashboard')).json()).user.user_history as Array<{
          tx: string | null;
        }>;
        hashes = history.map((entry) => entry.tx ?? '');
        return hashes.filter((hash) => /^[0-9a-f]{64}$/.test(hash)).length;
      })
      .toBe(2);
    await sender.dispose();

    const page = await pageFor(browser, baseURL, account);
    await page.goto('/user-dashboard');
    await expect(page.getByText(`Welcome, ${account.user.username}`)).toBeVisible();
    // The palm in plain words, not "Palm identifier N/A".
    await expect(page.getByTestId('palm-hands')).toHaveText('No palm registered yet');
    await expect(page.getByText('N/A', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Register Palm' })).toHaveAttribute('href', '/palm-register');

    const balance = page.getByTestId('balance');
    await expect(balance).toHaveText(inr(750));
    await page.getByRole('button', { name: 'Hide balance' }).click();
    await expect(balance).toHaveText('••••••');
    await page.getByRole('button', { name: 'Show balance' }).click();
    await expect(balance).toHaveText(inr(750));
    await expect(page.getByRole('link', { name: 'Send Money' })).toHaveAttribute('href', '/transfer');
    await expect(page.getByRole('link', { name: 'Receive Money' })).toHaveAttribute('href', '/receive');
    await expect(page.getByRole('link', { name: 'Scan QR Code' })).toHaveAttribute('href', '/qr-scan');

    const recent = page.getByRole('region', { name: 'Recent History' });
    const amounts = recent.getByTestId('history-amount');
    await expect(amounts).toHaveText([`-${inr(250)}`, `+${inr(1000)}`]);
    await expect(recent.getByText(/^Transaction #[0-9a-f-]{8}$/).first()).toBeVisible();
    await expect(recent.getByText('Completed').first()).toBeVisible();
    // The transaction hash: 10 leading and 6 trailing characters, copied whole, 'Copied!' for 1.2 s.
    const newest = hashes[0]!;
    await expect(recent.locator('code').first()).toHaveText(`${newest.slice(0, 10)}…${newest.slice(-6)}`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const copy = recent.getByRole('button', { name: 'Copy transaction hash' }).first();
    await copy.click();
    await expect(recent.getByRole('button', { name: 'Copied! transaction hash' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newest);
    await expect(copy).toHaveAccessibleName('Copy transaction hash');
    expect(await axeViolations(page), 'wallet tab').toEqual([]);

    const tabs = page.getByRole('tablist', { name: 'Dashboard sections' });
    await expect(tabs.getByRole('tab', { name: 'Wallet' })).toHaveAttribute('aria-selected', 'true');
    await tabs.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByRole('tabpanel').getByTestId('history-amount')).toHaveCount(2);
    expect(await axeViolations(page), 'history tab').toEqual([]);

    await tabs.getByRole('tab', { name: 'History' }).press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Consent' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('Palm not registered')).toBeVisible();
    await expect(page.getByText('No biometric data found')).toBeVisible();
    await expect(page.getByText(/original biometric data is never stored/)).toBeVisible();
    expect(await axeViolations(page), 'consent tab').toEqual([]);

    await tabs.getByRole('tab', { name: 'Rewards' }).click();
    // The Rewards tab is the person's own from the server now (issue 24), no longer a preview of examples.
    await expect(page.getByText('Points balance')).toBeVisible();
    await expect(page.getByTestId('points-balance')).toHaveText('0');
    expect(await axeViolations(page), 'rewards tab').toEqual([]);
    await page.context().close();
  });

  test('the full history: older entries a page at a time, on the History tab and on /history', async ({
    browser,
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminSession(playwright, baseURL);
    for (let rupees = 1; rupees <= 52; rupees += 1) await giveValue(admin, account.user.id, rupees);
    await admin.dispose();

    const page = await pageFor(browser, baseURL, account);
    await page.goto('/user-dashboard');
    await page
      .getByRole('tablist', { name: 'Dashboard sections' })
      .getByRole('tab', { name: 'History' })
      .click();
    const panel = page.getByRole('tabpanel');
    const amounts = panel.getByTestId('history-amount');
    await expect(amounts).toHaveCount(50);
    await expect(amounts.first()).toHaveText(`+${inr(52)}`);
    await panel.getByRole('button', { name: 'Load older entries' }).click();
    await expect(amounts).toHaveCount(52);
    await expect(amounts.last()).toHaveText(`+${inr(1)}`);
    await expect(panel.getByRole('button', { name: 'Load older entries' })).toHaveCount(0);
    expect(await axeViolations(page), 'history tab, all pages').toEqual([]);

    await page.goto('/history');
    const records = page.getByRole('article');
    await expect(records).toHaveCount(50);
    await expect(page.getByRole('article', { name: `Received ${inr(1)}` })).toHaveCount(0);
    await page.getByRole('button', { name: 'Load older entries' }).click();
    await expect(records).toHaveCount(52);
    await expect(page.getByRole('article', { name: `Received ${inr(1)}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load older entries' })).toHaveCount(0);
    expect(await axeViolations(page), '/history, all pages').toEqual([]);
    await page.context().close();
  });

  test('notifications toggle: toasts and remembered in localStorage', async ({ page, account }) => {
    await signIn(page, account);
    await page.goto('/user-dashboard');
    const toggle = page.getByRole('switch', { name: /Notifications/ });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(page.getByText(messages.notificationsOn)).toBeVisible();
    expect(await readLocalStorage(page, 'notificationsActive')).toBe('true');
    await page.reload();
    await expect(page.getByRole('switch', { name: /Notifications/ })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('switch', { name: /Notifications/ }).click();
    await expect(page.getByText(messages.notificationsOff)).toBeVisible();
    expect(await readLocalStorage(page, 'notificationsActive')).toBe('false');
  });

  test("loading and failure: 'Loading dashboard...', the message and Retry", async ({ page, account }) => {
    await signIn(page, account);
    let fail = true;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/dashboard?*', async (route) => {
      if (!fail) return route.continue();
      await held;
      return route.fulfill({ status: 500, json: {} });
    });
    await page.goto('/user-dashboard');
    await expect(page.getByText('Loading dashboard...')).toBeVisible();
    release();
    await expect(page.getByRole('main').getByRole('alert')).toContainText(messages.internal);
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('balance')).toHaveText(inr(0));
  });

  test('/history empty state and /receive amount step', async ({ page, account }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    await signIn(page, account);
    await page.goto('/history');
    await expect(page.getByRole('heading', { name: 'Transaction History' })).toBeVisible();
    await expect(page.getByText('Your blockchain transaction records')).toBeVisible();
    await expect(page.getByText('No transactions found')).toBeVisible();
    await expect(page.getByText('Your transaction history will appear here')).toBeVisible();
    expect(await axeViolations(page), '/history empty').toEqual([]);

    // This browser becomes the person's own device on its first palm scan, after their step-up (issue 22).
    await stepUpByApi(page.request, account.contact);
    await page.goto('/receive');
    await expect(page.getByText(account.contact)).toBeVisible();
    await expect(
      page.getByText('Share your email or phone number with others to receive money'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Confirm Receive' }).click();
    await expect(formAlert(page)).toHaveText(messages.invalidAmount);
    await page.getByLabel('Expected Amount (INR)').fill('0');
    await page.getByRole('button', { name: 'Confirm Receive' }).click();
    await expect(formAlert(page)).toHaveText(messages.invalidAmount);
    expect(await axeViolations(page), '/receive with error').toEqual([]);
    await page.getByLabel('Expected Amount (INR)').fill('25');
    await page.getByRole('button', { name: 'Confirm Receive' }).click();
    await expect(page.getByRole('heading', { name: 'Palm authentication' })).toBeVisible();
    // This browser has no camera: the palm scanner says so (palm.spec.ts scans through a camera).
    await expect(page.getByText(messages.cameraUnavailable)).toBeVisible();
    expect(await axeViolations(page), '/receive palm step').toEqual([]);
    await page.getByRole('button', { name: 'Return' }).click();
    await expect(page).toHaveURL('/history');
  });
});
