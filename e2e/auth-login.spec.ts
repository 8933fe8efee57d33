import { messages } from '@hasta/contracts/messages';
import type { Page } from '@playwright/test';

import { expect, test, uniqueEmail } from './support/accounts';
import { chooseChannel, expectLoggedIn, formAlert, loginWithPassword, typeCode } from './support/auth-ui';
import { axeViolations } from './support/axe';
import { latestMessageId, nextMessage } from './support/outbox';

test.use({ reducedMotion: 'reduce' });

const modeHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });

test.describe('login', () => {
  test('by password, back to the page that asked for a login', async ({ page, account }) => {
    await page.goto('/user-dashboard');
    await expect(page).toHaveURL('/login?next=%2Fuser-dashboard');

    await loginWithPassword(page, account, 'not-the-password');
    await expect(formAlert(page)).toHaveText(messages.wrongCredentials);

    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectLoggedIn(page);
  });

  test('every validation message of §5.6, and Change phone/email', async ({ page }) => {
    const alert = formAlert(page);
    const sendCode = page.getByRole('button', { name: 'Login with OTP' });
    await page.goto('/login');

    await sendCode.click();
    await expect(alert).toHaveText(messages.invalidPhone);
    await page.getByLabel('Phone number').pressSequentially('1234');
    await sendCode.click();
    await expect(alert).toHaveText(messages.invalidPhone);

    await chooseChannel(page, 'email');
    await expect(alert).toBeEmpty();
    await page.getByLabel('Email address').fill('asha@example');
    await sendCode.click();
    await expect(alert).toHaveText(messages.invalidEmail);

    // The answer is the same whether or not an account exists, so an unknown address reaches the code step.
    const email = uniqueEmail();
    await page.getByLabel('Email address').fill(email);
    await nextMessage(page.request, email, () => sendCode.click());
    const verify = page.getByRole('button', { name: 'Verify & Login' });
    await verify.click();
    await expect(alert).toHaveText(messages.enterSixDigitCode);
    await typeCode(page, '12345');
    await verify.click();
    await expect(alert).toHaveText(messages.enterSixDigitCode);
    await typeCode(page, '123456');
    await verify.click();
    await expect(alert).toHaveText(messages.invalidVerificationCode);

    await page.getByRole('button', { name: 'Change phone/email' }).click();
    await expect(modeHeading(page, 'How would you like to log in?')).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveValue(email);
    // The same address again while its code is fresh goes back to that code without sending another.
    const lastId = await latestMessageId(page.request, email);
    await sendCode.click();
    await expect(modeHeading(page, 'Enter your one-time code')).toBeVisible();
    expect(await latestMessageId(page.request, email)).toBe(lastId);
  });

  test("the '+91 ' prefix cannot be deleted until a double-click unlocks it", async ({ page }) => {
    await page.goto('/login');
    const phone = page.getByLabel('Phone number');
    await expect(phone).toHaveValue('+91 ');

    await phone.click();
    await phone.press('End');
    await phone.pressSequentially('98');
    for (let i = 0; i < 6; i += 1) await phone.press('Backspace');
    await expect(phone).toHaveValue('+91 ');
    await phone.press('Home');
    await phone.press('Delete');
    await expect(phone).toHaveValue('+91 ');
    // Even replacing the whole value keeps the prefix.
    await phone.fill('7700900123');
    await expect(phone).toHaveValue('+91 7700900123');

    await phone.dblclick();
    await expect(page.getByText('Prefix unlocked')).toBeVisible();
    await phone.fill('');
    await expect(phone).toHaveValue('');
    await phone.pressSequentially('+44 7700 900123');
    await expect(phone).toHaveValue('+44 7700 900123');
  });

  test('axe: no violations in the choose, password and code modes', async ({ page }) => {
    // Several axe runs and argon2 logins: each takes seconds on a busy machine.
    test.slow();
    await page.goto('/login');
    // The page's code loads after the document (route-level splitting): check it once it is there.
    await expect(page.getByRole('heading', { level: 1, name: 'Login to Hasta' })).toBeVisible();
    expect(await axeViolations(page), 'choose').toEqual([]);
    await page.getByRole('button', { name: 'Login with Password' }).click();
    await expect(modeHeading(page, 'Log in with your password')).toBeVisible();
    expect(await axeViolations(page), 'password').toEqual([]);

    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(formAlert(page)).toHaveText(messages.invalidPhone);
    expect(await axeViolations(page), 'password with an error').toEqual([]);

    const email = uniqueEmail();
    await chooseChannel(page, 'email');
    await page.getByLabel('Email address').fill(email);
    await nextMessage(page.request, email, () =>
      page.getByRole('button', { name: 'Use OTP instead' }).click(),
    );
    await expect(modeHeading(page, 'Enter your one-time code')).toBeVisible();
    expect(await axeViolations(page), 'code').toEqual([]);
  });
});
