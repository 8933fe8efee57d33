import { messages } from '@hasta/contracts/messages';

import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  registerAccount,
  test,
  uniquePassword,
} from './support/accounts';
import { expectLoggedIn, fillLoginContact, loginWithPassword } from './support/auth-ui';
import { approveVendor, temporaryPasswordIn } from './support/merchant';
import { extractCode, latestMessageId, nextMessage, waitForMessage } from './support/outbox';
import { virtualAuthenticator } from './support/passkeys';
import { adminSession, giveValue, pageFor } from './support/wallet';

/**
 * Passkeys in the browser (issue 23), with Chromium's virtual authenticator: a store owner's first sign-in
 * creates one (the recovery codes shown once, "I have saved them"), later sign-ins use it; the admin signs
 * in with theirs, and registers another on the admin page and signs in with it alone; a person adds one in Settings and pays with it instead of a code.
 */
test.describe('passkeys', () => {
  test('a store owner creates a passkey at the first sign-in and signs in with it later', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const email = `shop-${Date.now()}@e2e.hasta.test`;
    const registration = await page.request.post('/api/vendor-registration', {
      data: {
        business_name: 'Passkey Chai',
        owner_name: 'Lakshmi Rao',
        email,
        phone: '+91 98765 43210',
        address: '80 Feet Road, Koramangala, Bengaluru',
        interests: ['PalmPOS Integration'],
      },
    });
    expect(registration.status()).toBe(201);
    const admin = await adminSession(playwright, baseURL);
    const welcome = await nextMessage(page.request, email, () => approveVendor(admin, email));
    await admin.dispose();
    const temporary = temporaryPasswordIn(welcome.body);

    // First sign-in: the password, then a passkey made on this device, then the recovery codes, once.
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login with Password' }).click();
    await page.getByRole('group', { name: 'Log in with' }).getByRole('button', { name: 'Email' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(temporary);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
    await page.getByRole('button', { name: 'Create passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    const codes = page.getByRole('list', { name: 'Save your recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await expect(codes.first()).toHaveText(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const continueButton = page.getByRole('button', { name: 'Continue' });
    await expect(continueButton).toBeDisabled();
    await page.getByLabel('I have saved them').check();
    await continueButton.click();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

    // The temporary password is replaced (the page says it is the first sign-in), and the store is open.
    await expect(page.getByRole('heading', { name: 'Welcome: choose your password' })).toBeVisible();
    const password = uniquePassword();
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm new password').fill(password);
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page).toHaveURL('/store-dashboard');
    await expect(page.getByText('Welcome, Passkey Chai')).toBeVisible();

    // A later sign-in: the password, then the passkey (a recovery code is offered in its place).
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).first().click();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login with Password' }).click();
    await page.getByRole('group', { name: 'Log in with' }).getByRole('button', { name: 'Email' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Use a recovery code' })).toBeVisible();
    await page.getByRole('button', { name: 'Use passkey' }).click();
    await expect(page).toHaveURL('/store-dashboard');
    await expect(page.getByText('Welcome, Passkey Chai')).toBeVisible();
    // The store's Settings list its owner's signed-in devices, this one marked (issue 23 item 2).
    await page.getByRole('tab', { name: 'Settings' }).click();
    const devices = page.getByRole('region', { name: 'Signed-in devices' });
    await expect(devices.getByText(/^This device: /)).toBeVisible();
    await expect(devices.getByRole('button', { name: 'Sign out everywhere else' })).toBeEnabled();
  });

  test('the admin signs in with the passkey and gives value', async ({ page, account }) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    // The shared helper loads the admin's passkey into the virtual authenticator and takes the step.
    await loginWithPassword(page, { channel: 'email', contact: ADMIN_EMAIL }, ADMIN_PASSWORD);
    await expectLoggedIn(page, '/admin');
    await expect(page.getByRole('heading', { name: 'Passkeys', level: 2 })).toBeVisible();
    // The admin's own signed-in devices, this one marked (issue 23 item 2).
    const devices = page.getByRole('region', { name: 'Signed-in devices' });
    await expect(devices.getByRole('heading', { level: 2 })).toBeVisible();
    await expect(devices.getByText(/^This device: /)).toBeVisible();
    await expect(devices.getByRole('button', { name: 'Sign out everywhere else' })).toBeEnabled();
    await page.getByRole('tab', { name: 'Send Value' }).click();
    await page.getByLabel('Find a user').fill(account.contact);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByLabel('User', { exact: true }).selectOption(account.user.id);
    await page.getByLabel('Amount (INR)').fill('5');
    await page.getByRole('button', { name: 'Send Value', exact: true }).click();
    await expect(page.getByText(messages.valueSent)).toBeVisible();
  });

  test('the admin registers another passkey on the admin page and signs in with it alone', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
    const page = await context.newPage();
    await page.goto('/login');
    await loginWithPassword(page, { channel: 'email', contact: ADMIN_EMAIL }, ADMIN_PASSWORD);
    await expectLoggedIn(page, '/admin');
    const section = page.getByRole('region', { name: 'Passkeys' });
    const listed = section.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
    await expect(listed.first()).toBeVisible();
    const before = await listed.count();

    // The shared admin's own device leaves this page's authenticator, so the new passkey is made fresh here
    // (an authenticator that holds one of the account's passkeys is not asked to make another).
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    for (const credential of (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials)
      await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential.credentialId });

    // Adding a passkey needs the owner's confirmation first: here the code sent to the admin's own email.
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(section.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
    const code = await nextMessage(page.request, ADMIN_EMAIL, () =>
      section.getByRole('button', { name: 'Send code' }).click(),
    );
    await section.getByLabel('6-digit code').fill(extractCode(code.body));
    await section.getByRole('button', { name: 'Verify' }).click();
    await expect(listed).toHaveCount(before + 1);
    const made = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(made).toHaveLength(1);
    await context.close();

    // A new browser whose authenticator holds only that new passkey signs the admin in with it.
    const later = await browser.newContext(baseURL === undefined ? {} : { baseURL });
    const laterPage = await later.newPage();
    const device = await virtualAuthenticator(laterPage);
    await device.cdp.send('WebAuthn.addCredential', {
      authenticatorId: device.authenticatorId,
      credential: { ...made[0]!, isResidentCredential: false },
    });
    await laterPage.goto('/login');
    await laterPage.getByRole('button', { name: 'Login with Password' }).click();
    await fillLoginContact(laterPage, 'email', ADMIN_EMAIL);
    await laterPage.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await laterPage.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(laterPage.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
    await laterPage.getByRole('button', { name: 'Use passkey' }).click();
    await expectLoggedIn(laterPage, '/admin');
    const used = (
      await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId })
    ).credentials[0]!;
    expect(used.signCount).toBeGreaterThan(made[0]!.signCount);
    await later.close();
  });

  test('a person adds a passkey in Settings and pays with it instead of a code', async ({
    browser,
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(180_000);
    const receiverRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const receiver = await registerAccount(receiverRequest, { channel: 'email' });
    await receiverRequest.dispose();
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, account.user.id, 300);
    await admin.dispose();

    const page = await pageFor(browser, baseURL, account);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto('/user-dashboard');
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog');
    await expect(settings.getByText('You have no passkey yet.')).toBeVisible();
    await settings.getByRole('button', { name: 'Add a passkey' }).click();
    // Adding one needs the owner's code first.
    await expect(settings.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
    const code = await nextMessage(page.request, account.contact, () =>
      settings.getByRole('button', { name: 'Send code' }).click(),
    );
    await settings.getByLabel('6-digit code').fill(extractCode(code.body));
    await settings.getByRole('button', { name: 'Verify' }).click();
    await expect(settings.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')).toHaveCount(1);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
    await settings.getByRole('button', { name: 'Close' }).click();

    // The transfer's code step offers the passkey instead; it approves ₹120 to this receiver.
    await page.goto('/transfer');
    await page.getByLabel('Receiver Email (Optional)').fill(receiver.contact);
    await page.getByLabel('Amount (INR)').fill('120');
    const afterId = await latestMessageId(page.request, account.contact);
    await page.getByRole('button', { name: 'Send Money' }).click();
    await expect(page.getByRole('heading', { name: 'Verify OTP' })).toBeVisible();
    await waitForMessage(page.request, account.contact, afterId);
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await expect(page.getByText(messages.moneySent).first()).toBeVisible();
    const dashboard = await page.request.get('/api/dashboard');
    expect(((await dashboard.json()) as { user: { balance: string } }).user.balance).toBe('180.00');
    await page.context().close();
  });
});
