import { messages } from '@hasta/contracts/messages';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { adminDashboard, openTab, submitPublicForm, toast } from './support/admin';
import { axeViolations } from './support/axe';
import { unique } from './support/marketing';
import { nextMessage } from './support/outbox';
import { adminSession } from './support/wallet';

/** A fresh, valid Indian mobile number. */
const phone = (): string => `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

test.describe('Admin: the public site’s forms', () => {
  test('Applicants: delete after the confirm, with the success and failure toasts', async ({
    browser,
    playwright,
    baseURL,
    request,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    const keep = unique('keep');
    const gone = unique('gone');
    const raced = unique('raced');
    for (const name of [keep, gone, raced]) {
      await submitPublicForm(request, '/api/applicants', {
        username: name,
        email: `${name}@e2e.hasta.test`,
        phonenumber: phone(),
        description: `Waiting for Hasta, ${name}`,
      });
    }
    const page = await adminDashboard(browser, baseURL);
    const section = await openTab(page, 'Applicants');
    const row = (name: string) => section.getByRole('row').filter({ hasText: `${name}@e2e.hasta.test` });
    await expect(row(gone)).toHaveCount(1);
    await expect(row(gone)).toContainText(`Waiting for Hasta, ${gone}`);
    expect(await axeViolations(page), 'applicants tab').toEqual([]);

    await row(gone)
      .getByRole('button', { name: /^Delete/ })
      .click();
    const confirm = page.getByRole('dialog', { name: messages.confirmDeleteApplicant });
    await expect(confirm).toContainText(gone);
    expect(await axeViolations(page), 'delete confirm').toEqual([]);
    await confirm.getByRole('button', { name: 'Confirm delete' }).click();
    await expect(toast(page, messages.applicantDeleted)).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(row(gone)).toHaveCount(0);
    await expect(row(keep)).toHaveCount(1);

    // Someone else deletes the applicant while the confirm is open: the server's 404 is the toast's reason.
    await row(raced)
      .getByRole('button', { name: /^Delete/ })
      .click();
    const admin = await adminSession(playwright, baseURL);
    const listed = (await (await admin.get('/api/applicants')).json()) as {
      applicants: Array<{ id: string; email: string }>;
    };
    const racedId = listed.applicants.find((entry) => entry.email === `${raced}@e2e.hasta.test`)?.id;
    expect(racedId).toBeDefined();
    expect((await admin.delete(`/api/applicants/${racedId}`)).status()).toBe(200);
    await admin.dispose();
    await confirm.getByRole('button', { name: 'Confirm delete' }).click();
    await expect(
      toast(page, `${messages.failedToDeleteApplicantPrefix}${messages.applicantNotFound}`),
    ).toBeVisible();
    await expect(row(raced)).toHaveCount(0);
    await page.context().close();
  });

  test('Inquiries, Vendor Registrations and Kiosk Applications list what the forms sent, fresh on every open', async ({
    browser,
    baseURL,
    request,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    const inquirer = unique('inquirer');
    await submitPublicForm(request, '/api/inquiry', {
      name: inquirer,
      email_or_phone: `${inquirer}@e2e.hasta.test`,
      role: 'investor',
      message: 'Tell me, "how" does it scale?',
    });
    const business = unique('Sharma, "Sons" & Co');
    await submitPublicForm(request, '/api/vendor-registration', {
      business_name: business,
      owner_name: 'R Sharma',
      email: `${unique('vendor')}@e2e.hasta.test`,
      phone: phone(),
      address: 'MG Road, Pune',
      interests: ['PalmPOS Integration', 'API Integration'],
      comments: 'Two counters',
    });
    const host = unique('host');
    await submitPublicForm(request, '/api/kiosk-applications', {
      name: host,
      email: `${host}@e2e.hasta.test`,
      phone: 'call after 5',
      address: 'Jayanagar, Bengaluru',
      premises: 'School',
      footfall: '300 a day',
      power: true,
      internet: false,
    });

    const page = await adminDashboard(browser, baseURL);
    const inquiries = await openTab(page, 'Inquiries');
    const inquiryRow = inquiries.getByRole('row').filter({ hasText: inquirer });
    await expect(inquiryRow.getByRole('cell')).toHaveText([
      inquirer,
      `${inquirer}@e2e.hasta.test`,
      // The role the form offered, named as the form names it (and in Hindi in Hindi).
      'Investor',
      'Tell me, "how" does it scale?',
      /\d{4}$/,
    ]);
    expect(await axeViolations(page), 'inquiries tab').toEqual([]);

    const vendors = await openTab(page, 'Vendor Registrations');
    const vendorRow = vendors.getByRole('row').filter({ hasText: business });
    await expect(vendorRow).toContainText('R Sharma');
    await expect(vendorRow).toContainText('PalmPOS Integration, API Integration');
    await expect(vendorRow).toContainText('Two counters');
    await expect(vendorRow.getByRole('button', { name: /^Approve/ })).toBeVisible();
    expect(await axeViolations(page), 'vendor registrations tab').toEqual([]);

    const kiosks = await openTab(page, 'Kiosk Applications');
    const kioskRow = kiosks.getByRole('row').filter({ hasText: host });
    await expect(kioskRow.getByRole('cell')).toHaveText([
      host,
      `${host}@e2e.hasta.test`,
      'call after 5',
      'Jayanagar, Bengaluru',
      'School',
      '300 a day',
      'Yes',
      'No',
      /\d{4}$/,
    ]);
    expect(await axeViolations(page), 'kiosk applications tab').toEqual([]);

    // Sent while the admin looks at another tab: reopening Inquiries loads it.
    const later = unique('later');
    await submitPublicForm(request, '/api/inquiry', {
      name: later,
      email_or_phone: '+91 98765 43210',
      role: 'merchant',
      message: 'Arrived later',
    });
    const reopened = await openTab(page, 'Inquiries');
    await expect(reopened.getByRole('row').filter({ hasText: later })).toHaveCount(1);
    await page.context().close();
  });

  test('approving a vendor registration creates a merchant who can log in', async ({
    browser,
    baseURL,
    request,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    const business = unique('Chai Point');
    const email = `${unique('owner')}@e2e.hasta.test`;
    await submitPublicForm(request, '/api/vendor-registration', {
      business_name: business,
      owner_name: 'Lakshmi',
      email,
      phone: phone(),
      address: 'Koramangala, Bengaluru',
      interests: ['PalmKiosk Setup'],
      comments: '',
    });
    const page = await adminDashboard(browser, baseURL);
    const vendors = await openTab(page, 'Vendor Registrations');
    const row = vendors.getByRole('row').filter({ hasText: business });

    const welcome = await nextMessage(request, email, async () => {
      await row.getByRole('button', { name: /^Approve/ }).click();
      const confirm = page.getByRole('dialog', { name: 'Approve this vendor?' });
      await expect(confirm).toContainText(email);
      expect(await axeViolations(page), 'approve confirm').toEqual([]);
      await confirm.getByRole('button', { name: 'Confirm approval' }).click();
      await expect(toast(page, messages.merchantApproved)).toBeVisible();
      await expect(confirm).toBeHidden();
    });
    await expect(row).toContainText('Approved');
    await expect(row.getByRole('button', { name: /^Approve/ })).toHaveCount(0);

    const merchants = await openTab(page, 'Merchants');
    const accounts = merchants.getByRole('region', { name: 'Merchant accounts' });
    await expect(accounts.getByRole('row').filter({ hasText: business })).toContainText(email);
    expect(await axeViolations(page), 'merchants tab').toEqual([]);

    // The owner logs in with the emailed temporary password, as a merchant who must choose a password.
    const temporary = /temporary password (\S+)\./.exec(welcome.body)?.[1];
    expect(temporary, welcome.body).toBeDefined();
    const login = await request.post('/api/auth/login', { data: { email, password: temporary } });
    expect(login.status(), await login.text()).toBe(200);
    expect(
      ((await login.json()) as { user: { role: string; must_change_password: boolean } }).user,
    ).toMatchObject({ role: 'merchant', must_change_password: true });
    await page.context().close();
  });

  test('loading texts and load failures of the new lists', async ({ browser, baseURL }) => {
    const page = await adminDashboard(browser, baseURL);
    const lists: Array<{ tab: string; url: string; loading: string; failure: string }> = [
      {
        tab: 'Applicants',
        url: '**/api/applicants',
        loading: 'Loading applicants...',
        failure: messages.failedToLoadApplicants,
      },
      {
        tab: 'Inquiries',
        url: '**/api/inquiry',
        loading: 'Loading inquiries...',
        failure: messages.failedToLoadInquiries,
      },
      {
        tab: 'Vendor Registrations',
        url: '**/api/vendor-registration',
        loading: 'Loading vendor registrations...',
        failure: messages.failedToLoadVendorRegistrations,
      },
      {
        tab: 'Kiosk Applications',
        url: '**/api/kiosk-applications',
        loading: 'Loading kiosk applications...',
        failure: messages.failedToLoadKioskApplications,
      },
      {
        tab: 'Merchants',
        url: '**/api/merchants',
        loading: 'Loading merchants...',
        failure: messages.failedToLoadMerchants,
      },
      {
        tab: 'Merchants',
        url: '**/api/payouts',
        loading: 'Loading withdrawals...',
        failure: messages.failedToLoadWithdrawals,
      },
    ];
    for (const list of lists) {
      const release = await holdThenRefuse(page, list.url);
      const section = await openTab(page, list.tab);
      await expect(section.getByText(list.loading)).toBeVisible();
      release();
      const alert = section.getByRole('alert').filter({ hasText: list.failure });
      await expect(alert).toHaveText(`${list.failure}: ${messages.forbidden}Retry`);
      await page.unroute(list.url);
      await alert.getByRole('button', { name: 'Retry' }).click();
      await expect(alert).toHaveCount(0);
      await expect(section.getByText(list.loading)).toHaveCount(0);
      await openTab(page, 'Users');
    }
    await page.context().close();
  });
});

/** The next requests to `url` wait until the returned function is called, then are refused (403). */
async function holdThenRefuse(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'FORBIDDEN', error: messages.forbidden, message: messages.forbidden }),
    });
  });
  return release;
}
