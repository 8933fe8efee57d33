import { messages } from '@hasta/contracts/messages';
import { dashboardResponseSchema } from '@hasta/contracts/wallet';
import type { APIRequestContext } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, registerAccount, signIn, test } from './support/accounts';
import { axeViolations } from './support/axe';
import { adminSession, apiSession, apiTransfer, giveValue, inr, pageFor } from './support/wallet';

async function balanceOf(request: APIRequestContext, userId: string): Promise<string> {
  const response = await request.get(`/api/dashboard?${new URLSearchParams({ userId })}`);
  expect(response.status(), await response.text()).toBe(200);
  return dashboardResponseSchema.parse(await response.json()).user.balance;
}

test.describe('Admin: Send Value and Transactions tabs', () => {
  test('tabs are accessible; deleting a transfer after the confirm restores both balances', async ({
    browser,
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(120_000);
    const other = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const receiver = await registerAccount(other, { channel: 'email' });
    await other.dispose();
    const adminApi = await adminSession(playwright, baseURL);
    await giveValue(adminApi, account.user.id, 1000);
    await adminApi.dispose();
    const sender = await apiSession(playwright, baseURL, account);
    await apiTransfer(sender, account, { receiverEmail: receiver.contact }, 300);
    const receiverApi = await apiSession(playwright, baseURL, receiver);
    expect(await balanceOf(sender, account.user.id)).toBe('700.00');
    expect(await balanceOf(receiverApi, receiver.user.id)).toBe('300.00');

    const page = await pageFor(browser, baseURL, {
      channel: 'email',
      contact: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    await page.goto('/admin');
    const tabs = page.getByRole('tablist', { name: 'Admin sections' });
    await expect(tabs.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('region', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
    expect(await axeViolations(page), 'users tab').toEqual([]);

    await tabs.getByRole('tab', { name: 'Send Value' }).click();
    await page.getByRole('button', { name: 'Send Value', exact: true }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Please choose a user.');
    expect(await axeViolations(page), 'send value tab').toEqual([]);

    await tabs.getByRole('tab', { name: 'Transactions' }).click();
    const section = page.getByRole('region', { name: 'Transactions' });
    const row = section
      .getByRole('row')
      .filter({ hasText: receiver.contact })
      .filter({ hasText: inr(300) })
      .filter({ hasText: 'transfer' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(account.contact);
    await expect(row).toContainText('completed');
    expect(await axeViolations(page), 'transactions tab').toEqual([]);

    await row.getByRole('button', { name: /^Reverse/ }).click();
    const confirm = page.getByRole('dialog', { name: messages.confirmDeleteTransaction });
    await expect(confirm).toBeVisible();
    expect(await axeViolations(page), 'reverse confirm').toEqual([]);
    await confirm.getByRole('button', { name: 'Confirm reversal' }).click();
    await expect(page.getByText(messages.transactionDeleted)).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText('reversed');
    await expect(row.getByRole('button', { name: /^Reverse/ })).toHaveCount(0);
    const reversal = section
      .getByRole('row')
      .filter({ hasText: 'reversal' })
      .filter({ hasText: inr(300) });
    await expect(reversal).toHaveCount(1);
    await expect(reversal.getByRole('button', { name: /^Reverse/ })).toHaveCount(0);

    expect(await balanceOf(sender, account.user.id)).toBe('1000.00');
    expect(await balanceOf(receiverApi, receiver.user.id)).toBe('0.00');
    await sender.dispose();
    await receiverApi.dispose();
    await page.context().close();
  });

  test("loading and failure texts: 'Loading transactions...', 'Failed to delete transaction: '", async ({
    page,
  }) => {
    await signIn(page, { channel: 'email', contact: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/transaction?*', async (route) => {
      await held;
      await route.fulfill({
        json: {
          transactions: [
            {
              txid: '11111111-2222-3333-4444-555555555555',
              kind: 'transfer',
              from_user_id: null,
              to_user_id: null,
              to_merchant_id: null,
              amount: '12.50',
              status: 'completed',
              created_at: new Date().toISOString(),
            },
          ],
        },
      });
    });
    await page.route('**/api/transaction/*', (route) =>
      route.fulfill({ status: 409, json: { code: 'CONFLICT', message: messages.reversalWouldOverdraw } }),
    );
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await expect(page.getByText('Loading transactions...')).toBeVisible();
    release();
    await page.getByRole('button', { name: /^Reverse/ }).click();
    await page.getByRole('button', { name: 'Confirm reversal' }).click();
    await expect(
      page.getByText(`${messages.failedToDeleteTransactionPrefix}${messages.reversalWouldOverdraw}`),
    ).toBeVisible();
  });
});
