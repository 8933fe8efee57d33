import { messages } from '@hasta/contracts/messages';
import type { Page } from '@playwright/test';

import { expect, test, uniqueEmail, uniquePassword, uniquePhone } from './support/accounts';
import { formAlert, typeCode } from './support/auth-ui';
import { axeViolations } from './support/axe';
import { extractCode, extractRegistrationLink, latestMessageId, nextMessage } from './support/outbox';
import { readLocalStorage } from './support/storage';

// Axe measures colour contrast, so pages are checked at rest: the app skips its fades for reduced motion.
test.use({ reducedMotion: 'reduce' });

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });

async function fillForm(page: Page, username: string, contact: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email or phone number').fill(contact);
}

async function sendCode(page: Page, to: string): Promise<string> {
  const message = await nextMessage(page.request, to, () =>
    page.getByRole('button', { name: 'Send Verification Code' }).click(),
  );
  return message.body;
}

async function choosePassword(page: Page, password: string, confirm = password): Promise<void> {
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(confirm);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

async function expectAccountCreated(page: Page, stored: Record<string, string>): Promise<void> {
  await expect(page.getByText(`${messages.accountCreated} Redirecting to your dashboard...`)).toBeVisible();
  await expect(page).toHaveURL('/user-dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('User Dashboard');
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible();
  const user = JSON.parse((await readLocalStorage(page, 'user')) ?? '{}') as Record<string, unknown>;
  expect(user).toMatchObject(stored);
  // The session is a cookie the server knows.
  const session = await page.request.get('/api/auth/session');
  expect(session.status()).toBe(200);
}

test.describe('register', () => {
  test('by email: form, check-email, Enter Code Manually, code, password, dashboard (axe at each step)', async ({
    page,
  }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    const email = uniqueEmail();
    await page.goto('/register');
    await expect(stepHeading(page, 'Your details')).toBeVisible();
    expect(await axeViolations(page), 'form step').toEqual([]);

    await fillForm(page, 'Asha E2E', email);
    const body = await sendCode(page, email);
    await expect(stepHeading(page, 'Check your email')).toBeVisible();
    await expect(page.getByText(messages.otpSentEmail)).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    expect(await axeViolations(page), 'check-email step').toEqual([]);

    await page.getByRole('button', { name: 'Enter Code Manually' }).click();
    await expect(stepHeading(page, 'Enter verification code')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Resend OTP in \d+s$/ })).toBeDisabled();
    expect(await axeViolations(page), 'otp step').toEqual([]);

    await typeCode(page, extractCode(body));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(stepHeading(page, 'Create your password')).toBeVisible();
    // The username was given on the form: it is not asked again.
    await expect(page.getByLabel('Username')).toHaveCount(0);
    expect(await axeViolations(page), 'password step').toEqual([]);

    await choosePassword(page, uniquePassword());
    await expectAccountCreated(page, { email, username: 'Asha E2E' });
  });

  test('the code can be typed on the check-email step at once; the code toast does not follow into the password step', async ({
    page,
  }) => {
    const email = uniqueEmail();
    await page.goto('/register');
    await fillForm(page, 'Ravi E2E', email);
    const body = await sendCode(page, email);
    await expect(stepHeading(page, 'Check your email')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: messages.otpSentEmail })).toBeVisible();
    // The code field is ready here, focused: no need to press Enter Code Manually.
    await expect(page.getByRole('group', { name: 'Verification code' })).toBeVisible();
    await typeCode(page, extractCode(body));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(stepHeading(page, 'Create your password')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: messages.otpSentEmail })).toHaveCount(0);
    await choosePassword(page, uniquePassword());
    await expectAccountCreated(page, { email, username: 'Ravi E2E' });
  });

  test('by phone: the code comes by SMS', async ({ page }) => {
    const phone = uniquePhone();
    await page.goto('/register');
    await fillForm(page, 'Ravi', `+91 ${phone.slice(3, 8)} ${phone.slice(8)}`);
    const body = await sendCode(page, phone);
    await expect(stepHeading(page, 'Check your phone')).toBeVisible();
    await expect(page.getByText(messages.otpSentPhone)).toBeVisible();

    await page.getByRole('button', { name: 'Enter Code Manually' }).click();
    await typeCode(page, extractCode(body));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await choosePassword(page, uniquePassword());
    await expectAccountCreated(page, { phone });
  });

  test('the email link opens the code step with the email and verifies itself', async ({ page }) => {
    const email = uniqueEmail();
    await page.goto('/register');
    await fillForm(page, 'Meera', email);
    const link = extractRegistrationLink(await sendCode(page, email));
    expect(link).toMatch(/^\/register\?token=[^&]+&email=[^&]+&type=registration$/);

    // Opened later, as from the mail app: a fresh page load.
    await page.goto(link);
    await expect(stepHeading(page, 'Create your password')).toBeVisible();
    // The token does not stay in the address bar.
    await expect(page).toHaveURL('/register');
    // This page never saw the form, so it asks for the username.
    await page.getByLabel('Username').fill('Meera');
    await choosePassword(page, uniquePassword());
    await expectAccountCreated(page, { email, username: 'Meera' });
  });

  test('a bad link shows the error and lets the user type the code; another type is ignored; Login link', async ({
    page,
  }) => {
    const email = uniqueEmail();
    await page.goto(`/register?token=not-a-token&email=${encodeURIComponent(email)}&type=registration`);
    await expect(stepHeading(page, 'Enter verification code')).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expect(formAlert(page)).toHaveText(messages.invalidVerificationCode);
    await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toBeEnabled();

    await page.goto(`/register?token=x&email=${encodeURIComponent(email)}&type=Registration`);
    await expect(stepHeading(page, 'Your details')).toBeVisible();

    await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL('/login');
  });

  test('every validation message of §5.7, and the buttons between steps', async ({ page }) => {
    const email = uniqueEmail();
    const alert = formAlert(page);
    await page.goto('/register');
    const send = page.getByRole('button', { name: 'Send Verification Code' });

    await send.click();
    await expect(alert).toHaveText(messages.registerIdentityRequired);
    await fillForm(page, 'Asha', 'asha@example');
    await send.click();
    await expect(alert).toHaveText(messages.registerInvalidContact);
    await page.getByLabel('Email or phone number').fill('12345');
    await send.click();
    await expect(alert).toHaveText(messages.registerInvalidContact);
    await fillForm(page, 'A', email);
    await send.click();
    await expect(alert).toHaveText(messages.usernameMinLength);

    await page.getByLabel('Username').fill('Asha');
    const body = await sendCode(page, email);
    await expect(stepHeading(page, 'Check your email')).toBeVisible();

    // Back to Registration keeps the details; the same address within the cooldown sends nothing new.
    await page.getByRole('button', { name: 'Back to Registration' }).click();
    await expect(page.getByLabel('Email or phone number')).toHaveValue(email);
    const lastId = await latestMessageId(page.request, email);
    await send.click();
    await expect(stepHeading(page, 'Check your email')).toBeVisible();
    expect(await latestMessageId(page.request, email)).toBe(lastId);

    await page.getByRole('button', { name: 'Enter Code Manually' }).click();
    const verify = page.getByRole('button', { name: 'Verify Code' });
    await verify.click();
    await expect(alert).toHaveText(messages.enterSixDigitVerificationCode);
    await typeCode(page, '12');
    await verify.click();
    await expect(alert).toHaveText(messages.enterSixDigitVerificationCode);
    const code = extractCode(body);
    const wrong = code === '000000' ? '111111' : '000000';
    await typeCode(page, wrong);
    await verify.click();
    await expect(alert).toHaveText(messages.invalidVerificationCode);

    await page.getByRole('button', { name: 'Back to Email' }).click();
    await expect(stepHeading(page, 'Check your email')).toBeVisible();
    await page.getByRole('button', { name: 'Back to Registration' }).click();
    await expect(stepHeading(page, 'Your details')).toBeVisible();
    await send.click();
    await page.getByRole('button', { name: 'Enter Code Manually' }).click();
    // The code was cleared on the way back.
    await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveValue('');
    await typeCode(page, code);
    await verify.click();

    const create = page.getByRole('button', { name: 'Create Account' });
    await create.click();
    await expect(alert).toHaveText(messages.passwordAndConfirmRequired);
    await choosePassword(page, 'abc');
    await expect(alert).toHaveText(messages.passwordMinLength);
    await choosePassword(page, 'secret-one', 'secret-two');
    await expect(alert).toHaveText(messages.passwordsDoNotMatch);
    // The server refuses a common password with its own message.
    await choosePassword(page, 'password1');
    await expect(alert).toHaveText(messages.commonPassword);

    await choosePassword(page, uniquePassword());
    await expect(page).toHaveURL('/user-dashboard');
  });
});
