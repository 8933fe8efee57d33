import type { APIRequestContext } from '@playwright/test';

import { ADMIN_EMAIL, expect, test } from './support/accounts';
import type { Account } from './support/accounts';
import { axeViolations } from './support/axe';
import { createMerchant } from './support/merchant';
import { extractCode, nextMessage } from './support/outbox';
import { newPalmSeed, palmFrames, sessionDevice, storePalmPaymentByApi } from './support/palm';
import type { Palm } from './support/palm';
import { adminSession, apiSession, giveValue, inr, pageFor } from './support/wallet';

/**
 * Rewards (issue 24) in the browser: points and tier move in the Rewards tab as the person pays by palm,
 * points redeem into the wallet and its history, and the footer's programme pages in both languages.
 */

/** The admin enrols `palm` for `person` (the kiosk's path: staff's help), and the person approves with their code. */
async function enrolAtKiosk(
  admin: APIRequestContext,
  personSession: APIRequestContext,
  person: Account,
  palm: Palm,
): Promise<void> {
  let requestId = '';
  // The admin's browser signs the scan as the admin's own device (issue 22).
  const device = await sessionDevice(admin, ADMIN_EMAIL);
  const frames = palmFrames(palm);
  const signed = await device.sign(admin, { purpose: 'enrol' }, frames);
  const message = await nextMessage(personSession, person.contact, async () => {
    const started = await admin.post('/Palm/register', {
      headers: signed.headers,
      data: {
        which_hand: 'left',
        consent: true,
        scan: { frames, source: 'camera' },
        user_id: person.user.id,
        admin_mode: true,
        ...signed.fields,
      },
    });
    expect(started.status(), await started.text()).toBe(202);
    requestId = ((await started.json()) as { request: { id: string } }).request.id;
  });
  const approved = await personSession.post(`/Palm/enrolment-requests/${requestId}/approve`, {
    data: { otp: extractCode(message.body) },
  });
  expect(approved.status(), await approved.text()).toBe(200);
}

test.describe('Rewards', () => {
  test('a person pays by palm at a store, sees points and tier move in the Rewards tab, redeems and sees the rupees in the wallet and History', async ({
    browser,
    playwright,
    baseURL,
    account: payer,
  }) => {
    test.setTimeout(180_000);
    const palm = { seed: newPalmSeed(), identity: 0 };
    const admin = await adminSession(playwright, baseURL);
    const payerSession = await apiSession(playwright, baseURL, payer);
    await enrolAtKiosk(admin, payerSession, payer, palm);
    await giveValue(admin, payer.user.id, 3000);
    await admin.dispose();
    await payerSession.dispose();

    const page = await pageFor(browser, baseURL, payer);
    await page.goto('/user-dashboard');
    const tabs = page.getByRole('tablist', { name: 'Dashboard sections' });
    await tabs.getByRole('tab', { name: 'Rewards' }).click();
    // The kiosk registration bonus, and no tier yet.
    await expect(page.getByTestId('points-balance')).toHaveText('100');
    await expect(page.getByTestId('tier')).toHaveText('No tier yet');
    await expect(page.getByText('₹2,000.00 more to reach Silver')).toBeVisible();
    await expect(page.getByTestId('recent-points')).toContainText('Kiosk registration bonus');
    expect(await axeViolations(page), 'rewards tab').toEqual([]);

    // A store takes two palm payments (Accept Palm): ₹2,000 reaches Silver (made below it: no points), then
    // ₹10 earns 5.
    const store = await createMerchant(playwright, baseURL, 'Rewards Kirana');
    const storeSession = await apiSession(playwright, baseURL, store);
    for (const [amount, first] of [
      [2000, 200],
      [10, 300],
    ] as const) {
      const paid = await storePalmPaymentByApi(
        storeSession,
        store,
        { amount, scan: { frames: palmFrames(palm, first), source: 'camera' } },
        `rewards-e2e-${palm.seed}-${amount}`,
      );
      expect(paid.status(), await paid.text()).toBe(200);
    }
    await storeSession.dispose();

    await page.reload();
    await tabs.getByRole('tab', { name: 'Rewards' }).click();
    await expect(page.getByTestId('points-balance')).toHaveText('105');
    await expect(page.getByTestId('tier')).toHaveText('Silver');
    await expect(page.getByText('Each palm payment at a store now earns 5 points.')).toBeVisible();
    await expect(page.getByTestId('recent-points').getByRole('listitem').first()).toContainText(
      'Palm payment',
    );
    await expect(page.getByTestId('recent-points').getByRole('listitem').first()).toContainText('+5');

    // Redeem 100 points: ₹25 into the wallet.
    await page.getByLabel('Points to redeem').fill('100');
    await page.getByRole('button', { name: 'Redeem' }).click();
    await expect(page.getByText(`100 points redeemed: ${inr(25)} added to your wallet.`)).toBeVisible();
    await expect(page.getByTestId('points-balance')).toHaveText('5');
    expect(await axeViolations(page), 'rewards tab after redeeming').toEqual([]);

    await tabs.getByRole('tab', { name: 'Wallet' }).click();
    await expect(page.getByTestId('balance')).toHaveText(inr(3000 - 2010 + 25));
    await page.goto('/history');
    await expect(page.getByText('Hasta Rewards').first()).toBeVisible();
    await expect(page.getByText(inr(25)).first()).toBeVisible();
    await page.context().close();
  });

  test('the footer opens the Stars and Points programme pages, in English and in Hindi', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Stars Programme' }).click();
    await expect(page).toHaveURL('/rewards/stars');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stars Programme');
    for (const [tier, from, points] of [
      ['Silver', '₹2,000', '5'],
      ['Gold', '₹5,000', '10'],
      ['Platinum', '₹10,000', '20'],
    ] as const) {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: tier }) });
      await expect(card).toContainText(`From ${from} in 12 months`);
      await expect(card).toContainText(`${points} points per palm payment at a store`);
    }
    expect(await axeViolations(page), 'stars programme').toEqual([]);

    await page.getByRole('contentinfo').getByRole('link', { name: 'Points Programme' }).click();
    await expect(page).toHaveURL('/rewards/points');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Points Programme');
    await expect(
      page.getByText(`4 points = ${inr(1).replace('.00', '')}, paid into your wallet.`),
    ).toBeVisible();
    await expect(page.getByText('From 100 points, in whole rupees.')).toBeVisible();
    await expect(
      page.getByText('100 bonus points, once, when you register your palm at a kiosk'),
    ).toBeVisible();
    await expect(page.getByText('50 points to you and to each friend you refer')).toBeVisible();
    expect(await axeViolations(page), 'points programme').toEqual([]);

    await page.getByLabel('Language').selectOption({ label: 'हिन्दी' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('पॉइंट्स प्रोग्राम');
    await expect(page.getByText('कम से कम 100 पॉइंट्स से, पूरे रुपयों में।')).toBeVisible();
    expect(await axeViolations(page), 'points programme in Hindi').toEqual([]);
    await page.getByRole('contentinfo').getByRole('link', { name: 'स्टार्स प्रोग्राम' }).click();
    await expect(page).toHaveURL('/rewards/stars');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('स्टार्स प्रोग्राम');
    await expect(page.getByRole('heading', { name: 'प्लैटिनम' })).toBeVisible();
    expect(await axeViolations(page), 'stars programme in Hindi').toEqual([]);
  });
});
