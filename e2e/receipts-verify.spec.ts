import { expect, test } from './support/accounts';
import { adminSession, apiSession, apiTransfer, giveValue, pageFor } from './support/wallet';

interface HistoryRow {
  id: string;
  direction: string;
  blockchain_tx: string | null;
}

test("a real payment's receipt verifies on /verify, in the browser, and an altered one does not", async ({
  browser,
  baseURL,
  playwright,
  account,
  phoneAccount,
}) => {
  const admin = await adminSession(playwright, baseURL);
  await giveValue(admin, account.user.id, 100);
  await admin.dispose();
  const sender = await apiSession(playwright, baseURL, account);
  await apiTransfer(sender, account, { receiverPhone: phoneAccount.contact }, 12.5);

  // The log appends within a second or so; history then names the payment by its log entry.
  await expect
    .poll(
      async () => {
        const history = (await (await sender.get('/api/transaction/history')).json()) as {
          transactions: HistoryRow[];
        };
        return history.transactions.find((row) => row.direction === 'sent')?.blockchain_tx ?? null;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^[0-9a-f]{64}$/);
  await sender.dispose();

  const page = await pageFor(browser, baseURL, account);
  await page.goto('/history');
  await page
    .getByRole('link', { name: /^Receipt/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/verify\?id=/);
  await expect(page.getByRole('heading', { name: 'Verify a receipt', level: 1 })).toBeVisible();
  const receiptField = page.getByLabel('Receipt (JSON)');
  await expect(receiptField).toHaveValue(/"inclusion_proof"/);
  await expect(page.getByLabel('Log verifier key')).toHaveValue(/\+[0-9a-f]{8}\+/);

  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Receipt verified' })).toBeVisible();
  await expect(page.getByText('payment', { exact: true })).toBeVisible();

  // The same receipt claiming another position in the log is refused, with the reason.
  const receipt = JSON.parse(await receiptField.inputValue()) as { index: number };
  await receiptField.fill(JSON.stringify({ ...receipt, index: receipt.index + 1 }));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This receipt does not verify' })).toBeVisible();
  await page.context().close();
});
