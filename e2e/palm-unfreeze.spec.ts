import { messages } from '@hasta/contracts/messages';

import { expect, test } from './support/accounts';
import { axeViolations } from './support/axe';
import { newPalmSeed, palmFrames, receiveByPalmByApi, registerPalmByApi } from './support/palm';
import { confirmItsYou } from './support/step-up';
import { adminSession, apiSession, giveValue, pageFor } from './support/wallet';

/**
 * Palm pay paused by "Not me" (issue 21) is turned back on by its owner only, with a fresh code to their own
 * phone or email: the Consent tab's banner and "Turn palm pay back on".
 */

test('a payer whose palm pay is paused turns it back on from the Consent tab with their code', async ({
  browser,
  playwright,
  baseURL,
  account: receiver,
  phoneAccount: payer,
}) => {
  test.setTimeout(180_000);
  const palm = { seed: newPalmSeed(), identity: 0 };
  const payerSession = await apiSession(playwright, baseURL, payer);
  await registerPalmByApi(payerSession, payer, palm, 'left');
  const admin = await adminSession(playwright, baseURL);
  await giveValue(admin, payer.user.id, 100);
  await admin.dispose();

  // A palm payment the payer reports as "Not me" from their History: palm pay is paused at once.
  const receiverSession = await apiSession(playwright, baseURL, receiver);
  const paid = await receiveByPalmByApi(receiverSession, receiver, {
    amount: 5,
    scan: { frames: palmFrames(palm, 200), source: 'camera' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const transactionId = ((await paid.json()) as { transaction: { id: string } }).transaction.id;
  await receiverSession.dispose();
  const reported = await payerSession.post('/api/palm/disputes', { data: { transaction_id: transactionId } });
  expect(reported.status(), await reported.text()).toBe(200);
  expect(await (await payerSession.get('/api/palm/status')).json()).toMatchObject({ frozen: true });

  const page = await pageFor(browser, baseURL, payer);
  await page.goto('/user-dashboard');
  await page
    .getByRole('tablist', { name: 'Dashboard sections' })
    .getByRole('tab', { name: 'Consent' })
    .click();
  const paused = page.getByRole('region', { name: 'Palm pay paused' });
  await expect(paused).toContainText('Palm pay is paused for your account');
  expect(await axeViolations(page), 'consent tab, palm pay paused').toEqual([]);
  await paused.getByRole('button', { name: 'Turn palm pay back on' }).click();
  await expect(paused.getByText('Turning palm pay back on needs a code')).toBeVisible();
  await confirmItsYou(page, payer.contact);
  await expect(page.getByText(messages.palmPayUnfrozen)).toBeVisible();
  await expect(paused).toHaveCount(0);
  expect(await (await payerSession.get('/api/palm/status')).json()).toEqual({
    frozen: false,
    frozen_at: null,
  });
  await payerSession.dispose();
  await page.context().close();
});
