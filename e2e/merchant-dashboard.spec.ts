import { messages } from '@hasta/contracts/messages';
import type { Page } from '@playwright/test';

import { expect, registerAccount, signIn, test, uniqueEmail, uniquePassword } from './support/accounts';
import { loginWithPassword } from './support/auth-ui';
import { axeViolations } from './support/axe';
import { approveVendor, createMerchant, temporaryPasswordIn } from './support/merchant';
import { extractCode, nextMessage } from './support/outbox';
import { confirmItsYou, stepUpByApi } from './support/step-up';
import { adminSession, apiSession, apiTransfer, giveValue, inr } from './support/wallet';

const figure = (page: Page, testId: string) => page.getByTestId(testId);

test.describe('Merchant dashboard (/store-dashboard)', () => {
  test('a vendor approved by an admin runs the store: figures, payments, settings, a bank account and a withdrawal the admin settles', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const business = `Chai Point ${Date.now() % 100_000}`;
    const email = uniqueEmail();

    // The vendor registers on the contact page.
    await page.goto('/contact');
    const vendorForm = page.getByRole('form', { name: 'Vendor registration' });
    await vendorForm.getByLabel('Business name').fill(business);
    await vendorForm.getByLabel('Owner name').fill('Lakshmi Rao');
    await vendorForm.getByLabel('Email').fill(email);
    await vendorForm.getByLabel('Phone').fill('+91 98765 43210');
    await vendorForm.getByLabel('Business address').fill('80 Feet Road, Koramangala, Bengaluru');
    await vendorForm.getByLabel('PalmPOS Integration').check();
    await vendorForm.getByRole('button', { name: 'Register as vendor' }).click();
    await expect(vendorForm.getByRole('status')).toHaveText(messages.requestSent);

    // An admin approves it; the owner gets a temporary password by email.
    const admin = await adminSession(playwright, baseURL);
    const welcome = await nextMessage(page.request, email, () => approveVendor(admin, email));
    const temporary = temporaryPasswordIn(welcome.body);

    // The owner logs in, must choose a password, and lands on the store dashboard.
    await page.goto('/login');
    await loginWithPassword(page, { channel: 'email', contact: email }, temporary);
    // Its first sign-in says so: not a reset by an administrator.
    await expect(page.getByRole('heading', { name: 'Welcome: choose your password' })).toBeVisible();
    await expect(page.getByText(/This is your first sign-in/)).toBeVisible();
    await expect(page.getByText(/reset by an administrator/)).toHaveCount(0);
    const password = uniquePassword();
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password').fill(password);
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page).toHaveURL('/store-dashboard');
    await expect(page.getByRole('heading', { name: 'Merchant Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByText(`Welcome, ${business}`)).toBeVisible();
    await expect(figure(page, 'store-balance')).toHaveText(inr(0));
    await expect(page.getByRole('tab')).toHaveText([
      'Payments',
      'Accept Palm',
      'Generate QR',
      'Withdraw',
      'Settings',
      'Terminals',
    ]);
    await expect(page.getByText('No payments yet.', { exact: false })).toBeVisible();
    expect(await axeViolations(page), 'dashboard, Payments tab, empty').toEqual([]);

    // Two customers pay the store by its email; the money is the store's.
    for (const amount of [200, 100]) {
      const customerRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
      const customer = await registerAccount(customerRequest, { channel: 'email' });
      await giveValue(admin, customer.user.id, amount);
      await apiTransfer(customerRequest, customer, { receiverEmail: email }, amount);
      await customerRequest.dispose();
    }
    await page.reload();
    await expect(figure(page, 'store-balance')).toHaveText(inr(300));
    await expect(figure(page, 'store-sales')).toHaveText(inr(300));
    await expect(figure(page, 'store-transactions')).toHaveText('2');
    await expect(figure(page, 'store-average')).toHaveText(inr(150));
    await expect(figure(page, 'store-success-rate')).toHaveText('100%');
    await expect(figure(page, 'store-customers')).toHaveText('2');
    const payments = page.getByRole('table', { name: 'Payments received' });
    await expect(payments.getByRole('row')).toHaveCount(3);
    await expect(payments.getByRole('row').nth(1)).toContainText(inr(100));
    await expect(payments.getByRole('row').nth(1)).toContainText('completed');

    // Settings: saved, and still there after a reload.
    await page.getByRole('tab', { name: 'Settings' }).click();
    const settings = page.getByRole('form', { name: 'Store settings' });
    await expect(settings.getByLabel('Store name')).toHaveValue(business);
    await expect(settings.getByLabel('Contact email')).toHaveValue(email);
    await settings.getByLabel('Contact email').fill('not-an-email');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect(settings.getByRole('alert')).toHaveText(messages.invalidEmail);
    await settings.getByLabel('Store name').fill(`${business}, HSR`);
    await settings.getByLabel('Contact email').fill(email);
    await settings.getByLabel('Contact phone').fill('98765 00000');
    await settings.getByLabel('Send me an SMS when a withdrawal is settled or rejected').check();
    await settings.getByLabel('Email me when a withdrawal is settled or rejected').uncheck();
    expect(await axeViolations(page), 'Settings tab').toEqual([]);
    // A new contact phone gets a code: payers (and notices) see it once it is verified.
    const phoneCode = await nextMessage(page.request, '+919876500000', async () => {
      await settings.getByRole('button', { name: 'Save Settings' }).click();
      await expect(page.getByText(messages.settingsSaved)).toBeVisible();
    });
    await page.reload();
    await expect(page.getByText(`Welcome, ${business}, HSR`)).toBeVisible();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(settings.getByLabel('Store name')).toHaveValue(`${business}, HSR`);
    await expect(settings.getByLabel('Contact phone')).toHaveValue('+919876500000');
    await expect(
      settings.getByLabel('Send me an SMS when a withdrawal is settled or rejected'),
    ).toBeChecked();
    await expect(settings.getByLabel('Email me when a withdrawal is settled or rejected')).not.toBeChecked();
    const verifyPhone = page.getByRole('form', { name: 'Verify your contact phone' });
    await verifyPhone.getByLabel('Code sent to your contact phone').fill(extractCode(phoneCode.body));
    await verifyPhone.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText(messages.storeContactVerified)).toBeVisible();
    await expect(verifyPhone).toHaveCount(0);

    // Withdraw: a bank account first, then amounts checked on the page and by the server.
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    const withdrawForm = page.getByRole('form', { name: 'Withdraw to your bank' });
    const bankForm = page.getByRole('form', { name: 'Add a bank account' });
    await expect(withdrawForm).toContainText(`Available to withdraw: ${inr(300)}`);
    await expect(page.getByText('No withdrawals yet.')).toBeVisible();
    await withdrawForm.getByRole('button', { name: 'Withdraw' }).click();
    await expect(withdrawForm.getByRole('alert')).toHaveText(messages.chooseBankAccount);
    await bankForm.getByLabel('Account holder name').fill('Lakshmi Rao');
    await bankForm.getByLabel('Account number').fill('123456789012');
    await bankForm.getByLabel('IFSC').fill('HDFC123');
    await bankForm.getByRole('button', { name: 'Save bank account' }).click();
    await expect(bankForm.getByRole('alert')).toHaveText(messages.invalidIfsc);
    await bankForm.getByLabel('IFSC').fill('hdfc0001234');
    await bankForm.getByRole('button', { name: 'Save bank account' }).click();
    // A bank account needs the owner's code first (issue 23).
    await confirmItsYou(page, email);
    await expect(page.getByText(messages.bankAccountSaved)).toBeVisible();
    const account = withdrawForm.getByRole('radio', { name: 'Lakshmi Rao · ••••9012 · HDFC0001234' });
    await expect(account).toBeChecked();

    const amount = withdrawForm.getByLabel('Withdrawal amount (INR)');
    const withdraw = withdrawForm.getByRole('button', { name: 'Withdraw' });
    await withdraw.click();
    await expect(withdrawForm.getByRole('alert')).toHaveText(messages.amountRequired);
    await amount.fill('10.555');
    await withdraw.click();
    await expect(withdrawForm.getByRole('alert')).toHaveText(messages.amountTooPrecise);
    await amount.fill('500');
    await withdraw.click();
    // So does a withdrawal; the request then goes on and the server checks the amount.
    await confirmItsYou(page, email);
    await expect(withdrawForm.getByRole('alert')).toHaveText(messages.insufficientFunds);
    await amount.fill('120');
    await withdraw.click();
    await expect(page.getByText(messages.withdrawalRequested)).toBeVisible();
    await expect(page.getByRole('listitem', { name: `Withdrawal ${inr(120)} pending` })).toBeVisible();
    await expect(withdrawForm).toContainText(`Available to withdraw: ${inr(180)}`);
    await expect(figure(page, 'store-balance')).toHaveText(inr(300));
    // The Withdrawals card counts the pending one apart from what was settled.
    await expect(figure(page, 'store-withdrawals')).toHaveText(inr(0));
    await expect(page.getByTestId('store-withdrawals-pending')).toHaveText(`1 pending: ${inr(120)}`);
    expect(await axeViolations(page), 'Withdraw tab').toEqual([]);

    // The admin settles it: the money leaves, and the store is told by SMS as its settings chose.
    const payouts = (await (await admin.get('/api/payouts')).json()) as {
      withdrawals: { id: string; status: string; amount: string; store_name: string }[];
    };
    const payout = payouts.withdrawals.find((row) => row.store_name === `${business}, HSR`);
    expect(payout).toMatchObject({ status: 'pending', amount: '120.00' });
    const notice = await nextMessage(page.request, '+919876500000', async () => {
      const settled = await admin.post(`/api/payouts/${payout!.id}`, { data: { action: 'settle' } });
      expect(settled.status(), await settled.text()).toBe(200);
    });
    expect(notice.body).toContain('was settled');
    await admin.dispose();

    await page.reload();
    await expect(figure(page, 'store-balance')).toHaveText(inr(180));
    await expect(figure(page, 'store-withdrawals')).toHaveText(inr(120));
    await expect(page.getByTestId('store-withdrawals-pending')).toHaveText('none pending');
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    await expect(page.getByRole('listitem', { name: `Withdrawal ${inr(120)} settled` })).toBeVisible();
  });

  test('Accept Palm: the §5.9 amount step, then the palm scanner; without a camera it says so and offers a QR code', async ({
    page,
    playwright,
    baseURL,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    const merchant = await createMerchant(playwright, baseURL, 'Dosa Corner');
    await signIn(page, merchant);
    // Accept Palm makes this browser a terminal of the store on its first scan, after the owner's step-up.
    await stepUpByApi(page.request, merchant.contact);
    await page.goto('/store-dashboard');
    await page.getByRole('tab', { name: 'Accept Palm' }).click();
    // The palm scanner is connected: no notice that it is missing.
    await expect(page.getByText(/Palm acceptance needs the palm scanner/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Process Payment' }).click();
    const form = page.getByRole('form', { name: 'Process Transaction' });
    const amount = form.getByLabel('Amount (INR)');
    const next = form.getByRole('button', { name: 'Continue to Palm Scan' });
    await next.click();
    await expect(form.getByRole('alert')).toHaveText(messages.amountRequired);
    await amount.fill('0');
    await next.click();
    await expect(form.getByRole('alert')).toHaveText(messages.amountPositive);
    await amount.fill('49.999');
    await next.click();
    await expect(form.getByRole('alert')).toHaveText(messages.amountTooPrecise);
    expect(await axeViolations(page), 'Accept Palm amount step').toEqual([]);
    await amount.fill('49.5');
    await next.click();

    // This browser has no camera: the scanner says so, no payment is taken, and Cancel returns to the amount.
    await expect(page.getByRole('heading', { name: `Palm scan for ${inr(49.5)}` })).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(messages.cameraUnavailable);
    await expect(page.getByText(messages.transactionSuccessful)).toHaveCount(0);
    expect(await axeViolations(page), 'Accept Palm without a camera').toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(form.getByLabel('Amount (INR)')).toHaveValue('49.5');

    // A QR code for the amount instead.
    await next.click();
    await page.getByRole('button', { name: `Show a QR code for ${inr(49.5)} instead` }).click();
    await expect(page.getByRole('tab', { name: 'Generate QR' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Amount (INR, optional)')).toHaveValue('49.5');
  });

  test('only merchants: logged out goes to /login, a user is told whom it is for, and the server refuses them', async ({
    page,
    account,
  }) => {
    await page.goto('/store-dashboard');
    await expect(page).toHaveURL('/login?next=%2Fstore-dashboard');

    await signIn(page, account);
    await page.goto('/store-dashboard');
    await expect(page.getByRole('heading', { name: 'Merchant Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByText(messages.merchantOnly, { exact: false })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(0);
    expect(await axeViolations(page), 'not a merchant').toEqual([]);

    // A stored record claiming to be a merchant changes nothing on the server.
    await page.evaluate(() => {
      const user = JSON.parse(window.localStorage.getItem('user') ?? '{}') as Record<string, unknown>;
      window.localStorage.setItem('user', JSON.stringify({ ...user, role: 'merchant' }));
    });
    await page.reload();
    await expect(page.getByText(messages.merchantOnly, { exact: false })).toBeVisible();
    for (const path of ['/api/merchant/summary', '/api/merchant/qr-codes', '/api/merchant/withdrawals']) {
      expect((await page.request.get(path)).status(), path).toBe(403);
    }
  });

  test('a merchant’s own login lands on the dashboard, the navigation says Store Page, and another merchant sees only their own store', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const shop = await createMerchant(playwright, baseURL, 'Idli House');
    const rival = await createMerchant(playwright, baseURL, 'Vada Stall');
    const shopApi = await apiSession(playwright, baseURL, shop);
    const created = await shopApi.post('/api/merchant/qr-codes', { data: { label: 'Front door' } });
    expect(created.status()).toBe(200);
    await shopApi.dispose();

    await page.goto('/login');
    await loginWithPassword(page, rival, rival.password);
    await expect(page).toHaveURL('/store-dashboard');
    await expect(page.getByText('Welcome, Vada Stall')).toBeVisible();
    // The navigation bar takes a store's owner back to the store, not to a user's wallet.
    const home = page.getByRole('banner').getByRole('link', { name: 'Store Page' });
    await expect(home).toHaveAttribute('href', '/store-dashboard');
    await expect(page.getByRole('banner').getByRole('link', { name: 'User Page' })).toHaveCount(0);
    await expect(figure(page, 'store-qr-codes')).toHaveText('0');
    await page.getByRole('tab', { name: 'Generate QR' }).click();
    await expect(page.getByText('No QR codes yet. Generate one above.')).toBeVisible();
    await expect(page.getByText('Front door')).toHaveCount(0);
  });
});
