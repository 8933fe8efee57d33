import { messages } from '@hasta/contracts/messages';
import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
// eslint-disable-next-line import-x/default -- CommonJS: module.exports is the default import (the types only declare a namespace)
import Papa from 'papaparse';

import { expect, registerAccount, test } from './support/accounts';
import type { Account } from './support/accounts';
import { adminDashboard, downloadedText, listUsers, openRowActions, openTab, toast } from './support/admin';
import { axeViolations } from './support/axe';
import { unique } from './support/marketing';
import { adminSession, giveValue, inr } from './support/wallet';

/** Accounts registered through the API, a few at a time, each in a request context of its own. */
async function registerMany(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  usernames: readonly string[],
): Promise<Account[]> {
  const accounts: Account[] = [];
  const BATCH = 4;
  for (let start = 0; start < usernames.length; start += BATCH) {
    const batch = await Promise.all(
      usernames.slice(start, start + BATCH).map(async (username) => {
        const request: APIRequestContext = await playwright.request.newContext(
          baseURL === undefined ? {} : { baseURL },
        );
        try {
          return await registerAccount(request, { channel: 'email', username });
        } finally {
          await request.dispose();
        }
      }),
    );
    accounts.push(...batch);
  }
  return accounts;
}

test.describe('Admin: Users tab', () => {
  test('searches on the server and pages through the matches; balance, palm status and Register links', async ({
    browser,
    playwright,
    baseURL,
    phoneAccount,
  }) => {
    test.setTimeout(180_000);
    const token = unique('pager');
    const names = Array.from(
      { length: 12 },
      (_, index) => `Pager ${token} ${String(index).padStart(2, '0')}`,
    );
    const accounts = await registerMany(playwright, baseURL, names);
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, accounts[0]!.user.id, 250);
    await admin.dispose();

    const page = await adminDashboard(browser, baseURL);
    const users = page.getByRole('region', { name: 'Users', exact: true });
    await expect(users.getByRole('row').nth(1)).toBeVisible();
    expect(await axeViolations(page), 'users tab').toEqual([]);

    await users.getByLabel('Search users').fill(token.toUpperCase());
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    const status = users.getByRole('status');
    await expect(status).toHaveText(`Showing 1–12 of 12 users matching “${token.toUpperCase()}”`);
    await expect(users.getByRole('row')).toHaveCount(13);

    await users.getByLabel('Rows per page').selectOption('10');
    await expect(status).toHaveText(`Showing 1–10 of 12 users matching “${token.toUpperCase()}”`);
    await expect(users.getByRole('row')).toHaveCount(11);
    const firstPage = await users.getByRole('row').locator('td:first-child').allTextContents();
    const previous = users.getByRole('button', { name: 'Previous page' });
    const next = users.getByRole('button', { name: 'Next page' });
    await expect(previous).toBeDisabled();

    await next.click();
    await expect(status).toHaveText(`Showing 11–12 of 12 users matching “${token.toUpperCase()}”`);
    await expect(users.getByRole('row')).toHaveCount(3);
    await expect(next).toBeDisabled();
    const secondPage = await users.getByRole('row').locator('td:first-child').allTextContents();
    expect([...firstPage, ...secondPage].sort()).toEqual([...names].sort());

    await previous.click();
    await expect(status).toHaveText(`Showing 1–10 of 12 users matching “${token.toUpperCase()}”`);
    expect(await users.getByRole('row').locator('td:first-child').allTextContents()).toEqual(firstPage);

    // One account: its ledger balance, palm status and the per-hand Register links of spec §2.17.
    const funded = accounts[0]!;
    await users.getByLabel('Search users').fill(funded.contact);
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(status).toHaveText(`Showing 1–1 of 1 user matching “${funded.contact}”`);
    const row = users.getByRole('row').filter({ hasText: funded.contact });
    await expect(row.getByRole('cell')).toHaveText([
      names[0]!,
      funded.contact,
      '—',
      inr(250),
      // Points and tier (issue 24).
      '0',
      '—',
      'user',
      'NO',
      'NO',
      /^\d{1,2} \w{3} \d{4}$/,
      /Register Left Palm.*Register Right Palm.*Reset password/,
    ]);
    await openRowActions(row);
    const expectedHref = (hand: 'left' | 'right') =>
      `/palm-register?${new URLSearchParams({
        user_id: funded.user.id,
        user_email: funded.contact,
        admin_mode: 'true',
        hand,
      })}`;
    await expect(row.getByRole('link', { name: /^Register Left Palm/ })).toHaveAttribute(
      'href',
      expectedHref('left'),
    );
    await expect(row.getByRole('link', { name: /^Register Right Palm/ })).toHaveAttribute(
      'href',
      expectedHref('right'),
    );

    // A phone typed with spaces finds the phone-only account.
    const spaced = `${phoneAccount.contact.slice(0, 3)} ${phoneAccount.contact.slice(3, 8)} ${phoneAccount.contact.slice(8)}`;
    await users.getByLabel('Search users').fill(spaced);
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(users.getByRole('row').filter({ hasText: phoneAccount.contact })).toHaveCount(1);
    await expect(status).toHaveText(`Showing 1–1 of 1 user matching “${spaced}”`);

    await users.getByRole('button', { name: 'Clear search' }).click();
    await expect(users.getByLabel('Search users')).toHaveValue('');
    await expect(status).toContainText('Showing 1–10 of ');

    await users.getByLabel('Search users').fill(`${token}-nobody`);
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(users.getByText(`No users match “${token}-nobody”.`)).toBeVisible();

    // The Register link opens the palm page in admin mode for that user.
    await users.getByLabel('Search users').fill(funded.contact);
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    await openRowActions(row);
    await row.getByRole('link', { name: /^Register Right Palm/ }).click();
    await expect(page).toHaveURL(expectedHref('right'));
    await expect(page.getByRole('heading', { level: 1, name: 'Palm Registration' })).toBeVisible();
    await page.context().close();
  });

  test('exports the matching users to users.csv: names with commas and quotes survive', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const token = unique('csv');
    const names = [`Nair, Meera "M" ${token}`, `${token} O'Brien, "Jr.", Esq`, `Plain ${token}`];
    const accounts = await registerMany(playwright, baseURL, names);
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, accounts[0]!.user.id, 1234.5);
    const listed = await listUsers(admin, token);
    await admin.dispose();
    expect(listed).toHaveLength(3);

    const page = await adminDashboard(browser, baseURL);
    const users = page.getByRole('region', { name: 'Users', exact: true });
    await users.getByLabel('Search users').fill(token);
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(users.getByRole('status')).toHaveText(`Showing 1–3 of 3 users matching “${token}”`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      users.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('users.csv');
    await expect(toast(page, messages.usersExported)).toBeVisible();

    const parsed = Papa.parse<Record<string, string>>(await downloadedText(download), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([
      'ID',
      'Name',
      'Email',
      'Balance',
      'Role',
      'Left Palm',
      'Right Palm',
      'Created',
    ]);
    const expected = listed.map((user) => ({
      ID: user.id,
      Name: user.username,
      Email: user.email ?? '',
      Balance: user.balance,
      Role: 'user',
      'Left Palm': 'NO',
      'Right Palm': 'NO',
      Created: user.created_at.slice(0, 10),
    }));
    expect(parsed.data).toEqual(expected);
    expect(parsed.data.map((record) => record['Name']).sort()).toEqual([...names].sort());
    expect(parsed.data.find((record) => record['Name'] === names[0])?.['Balance']).toBe('1234.50');
    for (const record of parsed.data) expect(record['Created']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.context().close();
  });

  test('Send Value: finds the user on the server, sends, and the Users tab shows the new balance', async ({
    browser,
    baseURL,
    account,
  }) => {
    const page = await adminDashboard(browser, baseURL);
    const section = await openTab(page, 'Send Value');
    await section.getByLabel('Find a user').fill(account.contact);
    await section.getByRole('button', { name: 'Find', exact: true }).click();
    const picker = section.getByLabel('User', { exact: true });
    const option = `${account.user.username} (${account.contact}) · ${inr(0)}`;
    await expect(picker.getByRole('option')).toHaveText(['Choose a user', option]);
    await picker.selectOption({ label: option });
    await section.getByLabel('Amount (INR)').fill('75.25');
    await section.getByRole('button', { name: 'Send Value', exact: true }).click();
    await expect(toast(page, messages.valueSent)).toBeVisible();
    await expect(picker).toHaveValue('');
    await expect(picker.getByRole('option').nth(1)).toHaveText(
      `${account.user.username} (${account.contact}) · ${inr(75.25)}`,
    );

    const users = await openTab(page, 'Users');
    await users.getByLabel('Search users').fill(account.contact);
    await users.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(users.getByRole('row').filter({ hasText: account.contact })).toContainText(inr(75.25));
    await page.context().close();
  });
});
