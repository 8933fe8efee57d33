import { messages } from '@hasta/contracts/messages';

import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, registerAccount, test } from './support/accounts';
import { axeViolations } from './support/axe';
import { formAlert } from './support/auth-ui';
import { extractCode, latestMessageId, waitForMessage } from './support/outbox';
import { loginAs, shopper } from './support/storage';
import { inr, pageFor } from './support/wallet';

test.describe('Send money (/transfer)', () => {
  test('admin sends value, the user pays another user by phone with an SMS code, the receiver sees it', async ({
    browser,
    playwright,
    baseURL,
    phoneAccount,
  }) => {
    test.setTimeout(120_000);
    const receiverRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const receiver = await registerAccount(receiverRequest, { channel: 'phone' });
    await receiverRequest.dispose();

    // The admin gives the sender ₹500 on the Send Value tab.
    const admin = await pageFor(browser, baseURL, {
      channel: 'email',
      contact: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Send Value' }).click();
    await admin.getByLabel('Find a user').fill(phoneAccount.contact);
    await admin.getByRole('button', { name: 'Find', exact: true }).click();
    const user = admin.getByLabel('User', { exact: true });
    await expect(user.locator(`option[value="${phoneAccount.user.id}"]`)).toHaveCount(1);
    await user.selectOption(phoneAccount.user.id);
    await admin.getByLabel('Amount (INR)').fill('500');
    await admin.getByRole('button', { name: 'Send Value', exact: true }).click();
    await expect(admin.getByText(messages.valueSent)).toBeVisible();
    await expect(user).toHaveValue('');
    await expect(admin.getByLabel('Amount (INR)')).toHaveValue('');
    await admin.context().close();

    // The sender pays ₹123.45 to the receiver's phone.
    const page = await pageFor(browser, baseURL, phoneAccount);
    await page.goto('/transfer');
    await expect(page.getByRole('heading', { name: 'Send Money', level: 1 })).toBeVisible();
    await page.getByLabel('Receiver Phone (Optional)').fill(receiver.contact);
    await page.getByLabel('Amount (INR)').fill('123.45');
    const afterId = await latestMessageId(page.request, phoneAccount.contact);
    await page.getByRole('button', { name: 'Send Money' }).click();
    await expect(page.getByText(messages.otpSentPhone)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verify OTP' })).toBeVisible();
    await expect(page.getByText('Enter the 6-digit code sent to your phone/email')).toBeVisible();
    await expect(page.getByText('SMS OTP', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Resend in \d+s$/ })).toBeDisabled();
    const sms = await waitForMessage(page.request, phoneAccount.contact, afterId);
    // The code is bound to this transfer (issue 23): its message and the code step name it.
    expect(sms.body).toContain(`to send ₹123.45 to ••••${receiver.contact.slice(-4)}`);
    // The code step names where the code went, masked.
    await expect(page.getByTestId('code-sent-to')).toHaveText(
      `Code sent to +91 ••••••${phoneAccount.contact.slice(-4)} to send ₹123.45 to ${receiver.contact}. It pays only this transfer.`,
    );
    await page.getByLabel('One-time code').fill(extractCode(sms.body));
    await page.getByRole('button', { name: 'Verify & Send Money' }).click();
    // Success once the server confirmed, on the page, with no busy button left and no code toast beside it.
    await expect(page.getByRole('status', { name: messages.moneySent })).toBeVisible();
    await expect(page.getByTestId('transfer-done')).toHaveText(`Sent ₹123.45 to ${receiver.contact}.`);
    await expect(page.getByRole('button', { name: 'Verifying...' })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: messages.otpSentPhone })).toHaveCount(0);
    await expect(page).toHaveURL('/user-dashboard');
    await expect(page.getByTestId('balance')).toHaveText(inr(376.55));
    await page.context().close();

    // The receiver's history shows it as Received.
    const receiverPage = await pageFor(browser, baseURL, receiver);
    await receiverPage.goto('/history');
    const record = receiverPage.getByRole('article', { name: `Received ${inr(123.45)}` });
    await expect(record).toBeVisible();
    await expect(record).toContainText(phoneAccount.contact);
    await expect(record).toContainText('completed');
    expect(await axeViolations(receiverPage), '/history').toEqual([]);
    await receiverPage.context().close();
  });

  test('every §5.10 validation message, in order', async ({ page }) => {
    await loginAs(page, shopper);
    await page.goto('/transfer');
    const phone = page.getByLabel('Receiver Phone (Optional)');
    const email = page.getByLabel('Receiver Email (Optional)');
    const amount = page.getByLabel('Amount (INR)');
    const send = page.getByRole('button', { name: 'Send Money' });
    await expect(amount).toHaveAttribute('min', '0.01');
    await expect(amount).toHaveAttribute('step', '0.01');

    await send.click();
    await expect(formAlert(page)).toHaveText(messages.receiverRequired);
    await email.fill('someone@e2e.hasta.test');
    await send.click();
    await expect(formAlert(page)).toHaveText(messages.amountRequired);
    await amount.fill('0');
    await send.click();
    await expect(formAlert(page)).toHaveText(messages.amountPositive);
    await amount.fill('-3');
    await send.click();
    await expect(formAlert(page)).toHaveText(messages.amountPositive);
    await amount.fill('10');
    await email.fill(shopper.email.toUpperCase());
    await send.click();
    await expect(formAlert(page)).toHaveText(messages.selfSendEmail);
    await email.fill('');
    await phone.fill('9876543210');
    await send.click();
    await expect(formAlert(page)).toHaveText(messages.selfSendPhone);
    expect(await axeViolations(page), '/transfer form with an error').toEqual([]);
  });

  test("no phone or email for the code: 'No phone number or email found for OTP delivery.'", async ({
    page,
  }) => {
    await loginAs(page, { ...shopper, email: null as unknown as string, phone: null });
    await page.goto('/transfer');
    await page.getByLabel('Receiver Email (Optional)').fill('someone@e2e.hasta.test');
    await page.getByLabel('Amount (INR)').fill('5');
    await page.getByRole('button', { name: 'Send Money' }).click();
    await expect(formAlert(page)).toHaveText(messages.noOtpContact);
  });

  test('QR mode opens the camera scanner (qr-payment.spec.ts pays through it); without a camera it says so', async ({
    page,
  }) => {
    await loginAs(page, shopper);
    await page.goto('/transfer');
    await page.getByRole('button', { name: 'QR Scan' }).click();
    await expect(page.getByLabel('Camera preview')).toBeAttached();
    await expect(formAlert(page)).toHaveText(messages.cameraUnavailable);
    await expect(page.getByLabel('Amount (INR)')).toHaveCount(0);
    await page.getByRole('button', { name: 'Phone/Email' }).click();
    await expect(page.getByLabel('Amount (INR)')).toBeVisible();
  });

  test('the code step: digits only, 6 at most, the 6-digit rule, resend countdown, Go Back clears it', async ({
    page,
  }) => {
    let sends = 0;
    await page.route('**/api/send-sms-otp', async (route) => {
      sends += 1;
      await route.fulfill({ json: { success: true, message: 'sent', resend_after_s: 60 } });
    });
    await page.route('**/api/verify-sms-otp', (route) =>
      route.fulfill({
        status: 400,
        json: { code: 'BAD_REQUEST', message: messages.invalidVerificationCode },
      }),
    );
    await loginAs(page, shopper);
    await page.goto('/transfer');
    await page.getByLabel('Receiver Email (Optional)').fill('someone@e2e.hasta.test');
    await page.getByLabel('Amount (INR)').fill('12.5');
    await page.getByRole('button', { name: 'Send Money' }).click();
    await expect(page.getByText(messages.otpSentPhone)).toBeVisible();

    const code = page.getByLabel('One-time code');
    await code.pressSequentially('1a2 b3-');
    await expect(code).toHaveValue('123');
    await page.getByRole('button', { name: 'Verify & Send Money' }).click();
    await expect(formAlert(page)).toHaveText(messages.invalidOtp);
    await code.fill('12345678');
    await expect(code).toHaveValue('123456');
    await page.getByRole('button', { name: 'Verify & Send Money' }).click();
    await expect(formAlert(page)).toHaveText(messages.invalidVerificationCode);
    await expect(page.getByRole('button', { name: /^Resend in \d+s$/ })).toBeDisabled();
    expect(await axeViolations(page), '/transfer code step').toEqual([]);

    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page.getByRole('heading', { name: 'Send Money', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Send Money' }).click();
    await expect(page.getByRole('heading', { name: 'Verify OTP' })).toBeVisible();
    await expect(page.getByLabel('One-time code')).toHaveValue('');
    await expect(formAlert(page)).toHaveText('');
    expect(sends).toBe(2);
  });
});
