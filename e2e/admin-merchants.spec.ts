import { messages } from '@hasta/contracts/messages';
import { merchantSummarySchema, withdrawalListSchema } from '@hasta/contracts/merchant';
import type { APIRequestContext } from '@playwright/test';

import { expect, registerAccount, test } from './support/accounts';
import { adminDashboard, openTab, toast } from './support/admin';
import { axeViolations } from './support/axe';
import { unique } from './support/marketing';
import { createMerchant } from './support/merchant';
import { stepUpByApi } from './support/step-up';
import { adminSession, apiSession, apiTransfer, giveValue, inr } from './support/wallet';

async function requestWithdrawal(store: APIRequestContext, bankAccountId: string, amount: number) {
  const response = await store.post('/api/merchant/withdrawals', {
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    data: { amount, bank_account_id: bankAccountId },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('Admin: Merchants tab', () => {
  test('lists merchant accounts; settles one withdrawal and rejects another after a confirm', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const storeName = unique('Dosa Corner');
    const merchant = await createMerchant(playwright, baseURL, storeName);

    // A customer pays the store ₹500 (money sent to a merchant's address is the store's).
    const customerRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const customer = await registerAccount(customerRequest, { channel: 'email' });
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, customer.user.id, 500);
    await admin.dispose();
    await apiTransfer(customerRequest, customer, { receiverEmail: merchant.contact }, 500);
    await customerRequest.dispose();

    // The store saves a bank account and asks for two withdrawals.
    const store = await apiSession(playwright, baseURL, merchant);
    // Each needs the owner's code first (issue 23).
    await stepUpByApi(store, merchant.contact, 'store_bank_account');
    const saved = await store.post('/api/merchant/bank-accounts', {
      data: { holder_name: 'Lakshmi Rao', account_number: '123456789012', ifsc: 'HDFC0001234' },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const bankAccountId = ((await saved.json()) as { bank_accounts: Array<{ id: string }> }).bank_accounts[0]!
      .id;
    await stepUpByApi(store, merchant.contact, 'store_withdrawal');
    await requestWithdrawal(store, bankAccountId, 120);
    await requestWithdrawal(store, bankAccountId, 80.5);

    const page = await adminDashboard(browser, baseURL);
    const section = await openTab(page, 'Merchants');
    const accounts = section.getByRole('region', { name: 'Merchant accounts' });
    await expect(accounts.getByRole('row').filter({ hasText: storeName })).toContainText(merchant.contact);
    const withdrawals = section.getByRole('region', { name: 'Withdrawals' });
    const row = (amount: number) =>
      withdrawals
        .getByRole('row')
        .filter({ hasText: storeName })
        .filter({ hasText: inr(amount) });
    await expect(row(120)).toContainText('•••• 9012');
    await expect(row(120)).toContainText('pending');
    await expect(row(80.5)).toContainText('pending');
    expect(await axeViolations(page), 'merchants tab').toEqual([]);

    await row(120)
      .getByRole('button', { name: /^Settle/ })
      .click();
    const settle = page.getByRole('dialog', { name: 'Settle this withdrawal?' });
    await expect(settle).toContainText(inr(120));
    expect(await axeViolations(page), 'settle confirm').toEqual([]);
    await settle.getByRole('button', { name: 'Confirm settle' }).click();
    await expect(toast(page, messages.payoutSettled)).toBeVisible();
    await expect(settle).toBeHidden();
    await expect(row(120)).toContainText('settled');
    await expect(row(120).getByRole('button')).toHaveCount(0);

    await row(80.5)
      .getByRole('button', { name: /^Reject/ })
      .click();
    const reject = page.getByRole('dialog', { name: 'Reject this withdrawal?' });
    await expect(reject).toContainText('returns to the store');
    await reject.getByRole('button', { name: 'Confirm reject' }).click();
    await expect(toast(page, messages.payoutRejected)).toBeVisible();
    await expect(row(80.5)).toContainText('rejected');
    await expect(row(80.5).getByRole('button')).toHaveCount(0);

    // The ledger agrees: the settled ₹120 left the store, the rejected ₹80.50 came back.
    const summary = merchantSummarySchema.parse(await (await store.get('/api/merchant/summary')).json());
    expect(summary).toMatchObject({ balance: '380.00', total_withdrawals: '120.00' });
    const own = withdrawalListSchema.parse(await (await store.get('/api/merchant/withdrawals')).json());
    expect(own.withdrawals.map((withdrawal) => [withdrawal.amount, withdrawal.status]).sort()).toEqual([
      ['120.00', 'settled'],
      ['80.50', 'rejected'],
    ]);
    await store.dispose();
    await page.context().close();
  });

  test("a withdrawal decided elsewhere meanwhile: 'Failed to settle withdrawal: ' and the server's reason", async ({
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const storeName = unique('Idli House');
    const merchant = await createMerchant(playwright, baseURL, storeName);
    const customerRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const customer = await registerAccount(customerRequest, { channel: 'email' });
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, customer.user.id, 100);
    await apiTransfer(customerRequest, customer, { receiverEmail: merchant.contact }, 100);
    await customerRequest.dispose();
    const store = await apiSession(playwright, baseURL, merchant);
    await stepUpByApi(store, merchant.contact, 'store_bank_account');
    const saved = await store.post('/api/merchant/bank-accounts', {
      data: { holder_name: 'Lakshmi Rao', account_number: '998877665544', ifsc: 'SBIN0000001' },
    });
    const bankAccountId = ((await saved.json()) as { bank_accounts: Array<{ id: string }> }).bank_accounts[0]!
      .id;
    await stepUpByApi(store, merchant.contact, 'store_withdrawal');
    await requestWithdrawal(store, bankAccountId, 60);
    await store.dispose();

    const page = await adminDashboard(browser, baseURL);
    const section = await openTab(page, 'Merchants');
    const row = section
      .getByRole('region', { name: 'Withdrawals' })
      .getByRole('row')
      .filter({ hasText: storeName });
    await row.getByRole('button', { name: /^Settle/ }).click();

    // Another admin rejects it first.
    const payouts = withdrawalListSchema.parse(await (await admin.get('/api/payouts')).json());
    const payout = payouts.withdrawals.find((withdrawal) => withdrawal.store_name === storeName);
    expect(payout).toBeDefined();
    const rejected = await admin.post(`/api/payouts/${payout!.id}`, { data: { action: 'reject' } });
    expect(rejected.status(), await rejected.text()).toBe(200);
    await admin.dispose();

    await page
      .getByRole('dialog', { name: 'Settle this withdrawal?' })
      .getByRole('button', { name: 'Confirm settle' })
      .click();
    await expect(
      toast(page, `${messages.failedToSettleWithdrawalPrefix}${messages.payoutAlreadyResolved}`),
    ).toBeVisible();
    await expect(row).toContainText('rejected');
    await page.context().close();
  });
});
