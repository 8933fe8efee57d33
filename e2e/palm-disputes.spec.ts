import { randomBytes } from 'node:crypto';

import { messages } from '@hasta/contracts/messages';
import { outboxResponseSchema } from '@hasta/contracts/outbox';
import { transactionHistoryResponseSchema } from '@hasta/contracts/wallet';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, signIn, test } from './support/accounts';
import type { Account } from './support/accounts';
import { openTab, toast } from './support/admin';
import { axeViolations } from './support/axe';
import type { Palm } from './support/palm';
import { stepUpByApi } from './support/step-up';
import {
  dashboardBalance,
  newPalmSeed,
  palmFrames,
  receiveByPalmByApi,
  registerPalmByApi,
} from './support/palm';
import { adminSession, apiSession, apiTransfer, giveValue, inr, pageFor } from './support/wallet';

/**
 * "Not me" (issue 21): every palm payment tells its payer, with a one-time link that reports it without a
 * login; the payer's History reports one too. Palm pay pauses, an admin refunds or rejects the dispute in
 * the Disputes tab, and the payer sees the outcome in the History. Each test draws its own palm population
 * seed, so its palms are nobody else's in the shared database.
 */

/** A demo scan takes 2 s when idle; the bound is for a busy machine. */
const SCAN_TIMEOUT_MS = 45_000;
/** Key under which the scanner keeps this device's demo palm seed (components/palm-scanner/demo-palm.ts). */
const DEMO_SEED_STORAGE_KEY = 'palmDemoSeed';

/** A payer with a registered left palm and ₹100, and a session of theirs. */
async function payerWithPalm(
  playwright: Parameters<typeof apiSession>[0],
  baseURL: string | undefined,
  payer: Account,
  palm: Palm,
): Promise<APIRequestContext> {
  const session = await apiSession(playwright, baseURL, payer);
  await registerPalmByApi(session, payer, palm, 'left');
  const admin = await adminSession(playwright, baseURL);
  await giveValue(admin, payer.user.id, 100);
  await admin.dispose();
  return session;
}

/** A palm payment through the API, as the /receive page makes it; the payment's transaction id. */
async function palmPaymentByApi(
  receiverSession: APIRequestContext,
  body: { amount: number; receiverPhone: string; scan: { frames: string[]; source: 'camera' } },
): Promise<string> {
  const paid = await receiveByPalmByApi(receiverSession, { contact: body.receiverPhone }, body);
  expect(paid.status(), await paid.text()).toBe(200);
  return ((await paid.json()) as { transaction: { id: string } }).transaction.id;
}

/** The payer's newest notice with a "Not me?" link, and that link as a same-site path. */
async function notMeNotice(
  session: APIRequestContext,
  to: string,
  amount: string,
): Promise<{ body: string; path: string }> {
  let found: { body: string; path: string } | null = null;
  await expect
    .poll(
      async () => {
        const response = await session.get(`/api/dev/outbox?${new URLSearchParams({ to, limit: '20' })}`);
        const { messages: sent } = outboxResponseSchema.parse(await response.json());
        for (const message of sent) {
          const link = /https?:\/\/[^\s/]+(\/not-me\?token=[A-Za-z0-9_-]+)/.exec(message.body);
          if (link?.[1] !== undefined && message.body.includes(amount)) {
            found = { body: message.body, path: link[1] };
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000, message: `a palm payment notice of ${amount} to ${to}` },
    )
    .toBe(true);
  return found!;
}

/** The id of the payer's newest transfer (for finding its dispute). */
async function newestTransactionId(session: APIRequestContext, account: Account): Promise<string> {
  const response = await session.get(`/api/transaction/history?userId=${account.user.id}&limit=1`);
  expect(response.status(), await response.text()).toBe(200);
  const [newest] = transactionHistoryResponseSchema.parse(await response.json()).transactions;
  expect(newest).toBeDefined();
  return newest!.id;
}

/** A page of its own on /admin, signed in as the bootstrapped admin, `width` px wide. */
async function adminPage(browser: Browser, baseURL: string | undefined, width = 1280): Promise<Page> {
  const context = await browser.newContext({
    ...(baseURL === undefined ? {} : { baseURL }),
    viewport: { width, height: 844 },
  });
  const page = await context.newPage();
  await signIn(page, { contact: ADMIN_EMAIL, channel: 'email', password: ADMIN_PASSWORD });
  await page.goto('/admin');
  return page;
}

/** The Disputes tab's card of the dispute of transaction `transactionId`. */
async function disputeCard(page: Page, transactionId: string): Promise<Locator> {
  const section = await openTab(page, 'Disputes');
  const card = section.getByTestId('dispute').filter({ hasText: transactionId });
  await expect(card).toHaveCount(1);
  return card;
}

/** The /history record of a palm payment the payer made (its "Not me" or its dispute's state). */
const sentRecord = (page: Page, amount: number): Locator =>
  page.getByRole('article', { name: `Sent ${inr(amount)}`, exact: true });

test.describe('Not me: a palm payment reported by its payer, resolved by an admin', () => {
  test('the notice’s link reports a palm payment logged out; the admin refunds it; the payer sees the refund in History', async ({
    browser,
    playwright,
    baseURL,
    account: receiver,
    phoneAccount: payer,
  }) => {
    test.setTimeout(300_000);
    const seed = newPalmSeed();
    const payerSession = await payerWithPalm(playwright, baseURL, payer, { seed, identity: 0 });

    // The receiver takes ₹25.50 on /receive with this device's demo palm, which is the payer's left palm.
    const receiverPage = await pageFor(browser, baseURL, receiver);
    // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
    await stepUpByApi(receiverPage.request, receiver.contact);
    await receiverPage.goto('/receive');
    await receiverPage.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
      DEMO_SEED_STORAGE_KEY,
      String(seed),
    ] as const);
    await receiverPage.getByLabel('Expected Amount (INR)').fill('25.50');
    await receiverPage.getByRole('button', { name: 'Confirm Receive' }).click();
    await receiverPage.getByRole('button', { name: 'Demo left palm' }).click();
    await expect(receiverPage.getByText(messages.authenticationSuccessful)).toBeVisible({
      timeout: SCAN_TIMEOUT_MS,
    });
    await receiverPage.context().close();
    expect(await dashboardBalance(payerSession, payer)).toBe('74.50');
    const transactionId = await newestTransactionId(payerSession, payer);

    // The payer's notice: the amount and a one-time "Not me?" link at its end.
    const notice = await notMeNotice(payerSession, payer.contact, inr(25.5));
    expect(notice.body).toMatch(/Not me\? https?:\/\/\S+\/not-me\?token=[A-Za-z0-9_-]+$/);

    // Opened on a device nobody is logged in on: the payment, then "This wasn't me".
    const stranger = await browser.newContext(baseURL === undefined ? {} : { baseURL });
    const linkPage = await stranger.newPage();
    await linkPage.goto(notice.path);
    await expect(linkPage.getByRole('heading', { level: 1 })).toHaveText('Report a palm payment');
    const payment = linkPage.getByRole('region', { name: 'The payment' });
    await expect(payment.getByTestId('not-me-amount')).toHaveText(inr(25.5));
    await expect(payment.getByText('Paid to')).toBeVisible();
    expect(await axeViolations(linkPage), '/not-me, the payment').toEqual([]);
    await payment.getByRole('button', { name: 'This wasn’t me' }).click();
    const reported = linkPage.getByRole('region', { name: 'Payment reported' });
    await expect(reported).toContainText(messages.notMeReported);
    await expect(reported.getByRole('heading', { name: 'What happens next' })).toBeVisible();
    await expect(reported).toContainText('paused on every hand and every device');
    await expect(reported).toContainText('An admin reviews this payment');
    await expect(reported).toContainText('Consent tab of your dashboard');
    expect(await axeViolations(linkPage), '/not-me, reported').toEqual([]);
    // The link works once.
    await linkPage.reload();
    await expect(linkPage.getByRole('alert')).toHaveText(messages.notMeLinkInvalid);
    await stranger.close();

    // The payer's History says the payment is reported.
    const payerPage = await pageFor(browser, baseURL, payer);
    await payerPage.goto('/history');
    await expect(sentRecord(payerPage, 25.5).getByTestId('dispute-status')).toHaveText('Reported');
    await expect(sentRecord(payerPage, 25.5).getByRole('button', { name: /^Not me/ })).toHaveCount(0);

    // The admin refunds it from the Disputes tab.
    const admin = await adminPage(browser, baseURL);
    const card = await disputeCard(admin, transactionId);
    await expect(card).toContainText(inr(25.5));
    await expect(card).toContainText('Open');
    await expect(card).toContainText('Not me link in the notice');
    await expect(card).toContainText(payer.contact.slice(-4));
    // Where the scan was taken (the receiver's browser) and how close it was to the payer's palm.
    await expect(card.getByText('Device', { exact: true }).locator('..')).toContainText('Chrome');
    await expect(card.getByText('Similarity', { exact: true }).locator('..')).toHaveText(
      /^Similarity\d{1,3}\.\d%$/,
    );
    expect(await axeViolations(admin), 'Disputes tab').toEqual([]);
    await card.getByRole('button', { name: /^Refund/ }).click();
    const dialog = admin.getByRole('dialog', { name: 'Refund this payment?' });
    await expect(dialog).toContainText(inr(25.5));
    expect(await axeViolations(admin), 'Disputes tab, refund dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm refund' }).click();
    await expect(toast(admin, messages.disputeRefunded)).toBeVisible();
    // The list loads again: refunded, nothing left to do.
    await expect(card).toContainText('Refunded by the payee');
    await expect(card.getByRole('button')).toHaveCount(0);
    await admin.context().close();

    // The payer sees the refund: a received transaction, the payment marked refunded, the money back.
    await payerPage.goto('/history');
    await expect(
      payerPage.getByRole('article', { name: `Received ${inr(25.5)}`, exact: true }),
    ).toBeVisible();
    await expect(sentRecord(payerPage, 25.5).getByTestId('dispute-status')).toHaveText('Refunded');
    expect(await axeViolations(payerPage), '/history with a refunded dispute').toEqual([]);
    expect(await dashboardBalance(payerSession, payer)).toBe('100.00');
    await payerPage.context().close();
    await payerSession.dispose();
  });

  test('History: Not me on a palm payment the payer made opens a dispute; the admin rejects it with a reason the payer sees; the tab fits a phone', async ({
    browser,
    playwright,
    baseURL,
    account: payer,
    phoneAccount: receiver,
  }) => {
    test.setTimeout(240_000);
    const seed = newPalmSeed();
    const payerSession = await payerWithPalm(playwright, baseURL, payer, { seed, identity: 0 });

    // A palm payment of ₹12 (through the API, as the /receive page makes it), and a transfer of ₹3.
    const receiverSession = await apiSession(playwright, baseURL, receiver);
    const transactionId = await palmPaymentByApi(receiverSession, {
      amount: 12,
      receiverPhone: receiver.contact,
      scan: { frames: palmFrames({ seed, identity: 0 }, 200), source: 'camera' },
    });
    await receiverSession.dispose();
    await apiTransfer(payerSession, payer, { receiverPhone: receiver.contact }, 3);

    const payerPage = await pageFor(browser, baseURL, payer);
    await payerPage.goto('/history');
    const record = sentRecord(payerPage, 12);
    const notMe = record.getByRole('button', { name: /^Not me/ });
    await expect(notMe).toBeVisible();
    // Only palm payments the payer made: not a transfer, not money received.
    await expect(sentRecord(payerPage, 3)).toBeVisible();
    await expect(sentRecord(payerPage, 3).getByRole('button', { name: /^Not me/ })).toHaveCount(0);
    await expect(
      payerPage
        .getByRole('article', { name: `Received ${inr(100)}` })
        .getByRole('button', { name: /^Not me/ }),
    ).toHaveCount(0);

    await notMe.click();
    const dialog = payerPage.getByRole('dialog', { name: 'Report this palm payment?' });
    await expect(dialog).toContainText(inr(12));
    await expect(dialog).toContainText('palm pay is paused at once');
    expect(await axeViolations(payerPage), '/history, Not me dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Report: this wasn’t me' }).click();
    await expect(toast(payerPage, messages.notMeReported)).toBeVisible();
    await expect(record.getByTestId('dispute-status')).toHaveText('Reported');
    await expect(notMe).toHaveCount(0);
    // The dashboard's History tab says so too.
    await payerPage.goto('/user-dashboard');
    await payerPage.getByRole('tab', { name: 'History' }).click();
    const historyTab = payerPage.getByRole('region', { name: 'History', exact: true });
    await expect(historyTab.getByTestId('dispute-status')).toHaveText('Reported');

    // The admin, on a 390 px wide phone, rejects it: a reason is required.
    const admin = await adminPage(browser, baseURL, 390);
    const card = await disputeCard(admin, transactionId);
    await expect(card).toContainText('Not me in the History');
    await expect(card).toContainText(inr(12));
    const sideways = await admin.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways, 'the Disputes tab scrolls sideways on a phone').toBeLessThanOrEqual(0);
    expect(await axeViolations(admin), 'Disputes tab on a phone').toEqual([]);
    await card.getByRole('button', { name: /^Reject/ }).click();
    const reject = admin.getByRole('dialog', { name: 'Reject this dispute?' });
    await reject.getByRole('button', { name: 'Confirm reject' }).click();
    await expect(reject.getByRole('alert')).toHaveText(messages.disputeReasonRequired);
    await expect(reject.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
    const reason = `The scan matched your palm at the counter (${randomBytes(2).toString('hex')})`;
    await reject.getByLabel('Reason').fill(reason);
    await reject.getByRole('button', { name: 'Confirm reject' }).click();
    await expect(toast(admin, messages.disputeRejected)).toBeVisible();
    await expect(card).toContainText(`Rejected: ${reason}`);
    await expect(card.getByRole('button')).toHaveCount(0);
    await admin.context().close();

    // The payer's History shows the reason; the money stays paid.
    await payerPage.goto('/history');
    await expect(sentRecord(payerPage, 12).getByTestId('dispute-status')).toHaveText(`Rejected: ${reason}`);
    expect(await dashboardBalance(payerSession, payer)).toBe('85.00');
    await payerPage.context().close();
    await payerSession.dispose();
  });

  test('a link that is missing, unknown or malformed says it is not valid, in English and Hindi', async ({
    page,
  }) => {
    await page.goto('/not-me');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Report a palm payment');
    await expect(page.getByRole('alert')).toHaveText(messages.notMeLinkInvalid);
    await expect(page.getByRole('link', { name: 'Open your transaction history' })).toBeVisible();

    await page.goto(`/not-me?token=${randomBytes(32).toString('base64url')}`);
    await expect(page.getByRole('alert')).toHaveText(messages.notMeLinkInvalid);
    await expect(page.getByRole('button', { name: 'This wasn’t me' })).toHaveCount(0);
    expect(await axeViolations(page), '/not-me, unknown link').toEqual([]);

    await page.goto('/not-me?token=not%20a%20token');
    await expect(page.getByRole('alert')).toHaveText(messages.notMeLinkInvalid);
    await page.getByLabel('Language').selectOption('hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('हथेली से हुए भुगतान की शिकायत करें');
    await expect(page.getByRole('alert')).toHaveText('यह लिंक मान्य नहीं है या पहले ही इस्तेमाल हो चुका है।');
    await expect(page).toHaveTitle('हथेली से हुए भुगतान की शिकायत करें · Hasta');
    expect(await axeViolations(page), '/not-me in Hindi').toEqual([]);
  });
});
