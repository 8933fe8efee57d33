import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';

import { extractCode, nextMessage } from './outbox';

/**
 * The owner's step-up (issues 21 and 23) that registering one's own palm (palm_enrol), turning palm pay back
 * on (palm_unfreeze), adding a store's bank account (store_bank_account) or asking for a store's withdrawal
 * (store_withdrawal) needs: a code to the account's own phone or email, read from the dev outbox.
 */
export type StepUpPurpose = 'palm_enrol' | 'palm_unfreeze' | 'store_bank_account' | 'store_withdrawal';

/** The step-up through the API, for the session of `request` (a page's `page.request` shares its cookies). */
export async function stepUpByApi(
  request: APIRequestContext,
  contact: string,
  purpose: StepUpPurpose = 'palm_enrol',
): Promise<void> {
  const message = await nextMessage(request, contact, async () => {
    const sent = await request.post('/Palm/step-up/send', { data: { purpose } });
    expect(sent.status(), await sent.text()).toBe(200);
  });
  const verified = await request.post('/Palm/step-up/verify', {
    data: { purpose, otp: extractCode(message.body) },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}

/** "Confirm it's you" on the page: Send code, the code from the outbox, Verify. */
export async function confirmItsYou(page: Page, contact: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
  const message = await nextMessage(page.request, contact, () =>
    page.getByRole('button', { name: 'Send code' }).click(),
  );
  await expect(page.getByText(/Sent to /)).toBeVisible();
  await page.getByLabel('6-digit code').fill(extractCode(message.body));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it’s you' })).toHaveCount(0);
}
