import { VENDOR_INTERESTS, WAITLIST_REDIRECT_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { adminList, unique } from './support/marketing';

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

test.describe('waitlist', () => {
  async function fillWaitlist(
    page: Page,
    values: { name: string; email: string; phone: string; description: string },
  ) {
    await page.getByLabel('Name').fill(values.name);
    await page.getByLabel('Email').fill(values.email);
    await page.getByLabel('Phone Number').fill(values.phone);
    await page.getByLabel('Description').fill(values.description);
  }

  test('shows each validation message of the spec, without asking the server', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/applicants')) posts.push(request.url());
    });
    await page.goto('/applicants-register');
    await expect(h1(page)).toHaveText('Join the Hasta Waitlist');
    const join = page.getByRole('button', { name: 'Join Waitlist' });
    const alert = page.getByRole('main').getByRole('alert');

    await join.click();
    await expect(alert).toHaveText(messages.allFieldsRequired);
    await expect(page.getByLabel('Name')).toBeFocused();

    await fillWaitlist(page, {
      name: 'Asha',
      email: 'asha',
      phone: '+91 98765 43210',
      description: 'Shopper',
    });
    await join.click();
    await expect(alert).toHaveText(messages.invalidEmail);
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Email').fill('asha@example.in');
    await page.getByLabel('Phone Number').fill('12');
    await join.click();
    await expect(alert).toHaveText(messages.invalidPhone);
    await expect(page.getByLabel('Phone Number')).toBeFocused();

    await page.getByLabel('Description').fill('   ');
    await join.click();
    await expect(alert).toHaveText(messages.allFieldsRequired);
    expect(posts).toEqual([]);
  });

  test('joins, says so, stores the applicant and goes home after 2 s', async ({ page, request }) => {
    const email = `${unique('wait')}@example.in`;
    await page.goto('/applicants-register');
    await fillWaitlist(page, {
      name: 'Ravi Kumar',
      email,
      phone: '+91 98765 43210',
      description: 'I run a tea stall in Pune.',
    });
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Join Waitlist' }).click();

    await expect(page.getByRole('status')).toHaveText(messages.waitlistJoined);
    await expect(page).toHaveURL('/applicants-register');
    await page.waitForURL('/', { timeout: WAITLIST_REDIRECT_MS + 15_000 });
    // The timer starts once the server has answered, so home can never come sooner than 2 s after the click.
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(WAITLIST_REDIRECT_MS);
    await expect(h1(page)).toHaveText('Pay with the palm of your hand');

    const { applicants } = await adminList<{ applicants: Array<{ email: string; username: string }> }>(
      request,
      '/api/applicants',
    );
    expect(applicants.find((applicant) => applicant.email === email)?.username).toBe('Ravi Kumar');
  });

  test('a duplicate email shows the server message; no answer shows the fallback', async ({
    page,
    request,
  }) => {
    const email = `${unique('dup')}@example.in`;
    const first = await request.post('/api/applicants', {
      data: { username: 'First', email, phonenumber: '+91 98765 43210', description: 'First in line' },
    });
    expect(first.status()).toBe(201);

    await page.goto('/applicants-register');
    await fillWaitlist(page, { name: 'Second', email, phone: '+91 98765 43211', description: 'Me too' });
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(messages.alreadyOnWaitlist);
    await expect(page).toHaveURL('/applicants-register');

    await page.route('**/api/applicants', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Email').fill(`${unique('offline')}@example.in`);
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(messages.waitlistFailed);
  });

  test('the honeypot is hidden from people and assistive technology', async ({ page }) => {
    await page.goto('/applicants-register');
    const honeypot = page.locator('input[name="website"]');
    await expect(honeypot).toHaveAttribute('tabindex', '-1');
    await expect(honeypot).toHaveAttribute('autocomplete', 'off');
    await expect(honeypot).not.toBeInViewport();
    await expect(page.getByRole('textbox', { name: 'Leave this field empty' })).toHaveCount(0);
  });
});

test.describe('contact page forms', () => {
  test('the general inquiry is sent, confirmed, cleared and stored', async ({ page, request }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'General inquiry' });
    const send = form.getByRole('button', { name: 'Send inquiry' });

    await send.click();
    await expect(form.getByRole('alert')).toHaveText(messages.fillAllRequired);

    const name = unique('Inquirer');
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Email or phone').fill('+91 98765 43210');
    await expect(form.getByLabel('I am a').locator('option:not([value=""])')).toHaveText([
      'User',
      'Merchant',
      'Investor',
      'Developer',
    ]);
    await form.getByLabel('I am a').selectOption('investor');
    await form.getByLabel('Message').fill('When do you launch in Chennai?');
    await send.click();

    await expect(form.getByRole('status')).toHaveText(messages.requestSent);
    await expect(form.getByRole('alert')).toHaveText('');
    await expect(form.getByLabel('Name')).toHaveValue('');
    await expect(form.getByLabel('I am a')).toHaveValue('');
    await expect(form.getByLabel('Message')).toHaveValue('');

    const { inquiries } = await adminList<{
      inquiries: Array<{ name: string; email_or_phone: string; role: string; message: string }>;
    }>(request, '/api/inquiry');
    expect(inquiries.find((inquiry) => inquiry.name === name)).toMatchObject({
      email_or_phone: '+91 98765 43210',
      role: 'investor',
      message: 'When do you launch in Chennai?',
    });
  });

  test('a failed inquiry shows the server message, else the fallback', async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'General inquiry' });
    await form.getByLabel('Name').fill('Meera');
    await form.getByLabel('Email or phone').fill('meera@example.in');
    await form.getByLabel('I am a').selectOption('user');
    await form.getByLabel('Message').fill('Hello');

    await page.route('**/api/inquiry', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'INTERNAL', error: 'Service Unavailable', message: 'Down for upkeep.' }),
      }),
    );
    await form.getByRole('button', { name: 'Send inquiry' }).click();
    await expect(form.getByRole('alert')).toHaveText('Down for upkeep.');

    await page.unroute('**/api/inquiry');
    await page.route('**/api/inquiry', (route) => route.abort('connectionrefused'));
    await form.getByRole('button', { name: 'Send inquiry' }).click();
    await expect(form.getByRole('alert')).toHaveText(messages.requestFailed);
    await expect(form.getByLabel('Name')).toHaveValue('Meera');
  });

  test('the vendor registration is validated, sent, confirmed, cleared and stored', async ({
    page,
    request,
  }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Vendor registration' });
    const register = form.getByRole('button', { name: 'Register as vendor' });
    await expect(form.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(form.getByLabel('Phone')).toHaveAttribute('type', 'tel');
    await expect(form.getByRole('group', { name: 'Interested in' }).getByRole('checkbox')).toHaveCount(
      VENDOR_INTERESTS.length,
    );

    await register.click();
    await expect(form.getByRole('alert')).toHaveText(messages.fillAllRequired);

    const business = unique('Chai Corner');
    await form.getByLabel('Business name').fill(business);
    await form.getByLabel('Owner name').fill('Meera Iyer');
    await form.getByLabel('Email').fill('meera@example');
    await form.getByLabel('Phone').fill('+91 98765 43210');
    await form.getByLabel('Business address').fill('80 Feet Road, Koramangala, Bengaluru');
    await register.click();
    await expect(form.getByRole('alert')).toHaveText(messages.invalidEmail);

    await form.getByLabel('Email').fill('meera@example.in');
    await form.getByLabel('PalmKiosk Setup').check();
    await form.getByLabel('API Integration').check();
    await form.getByLabel('Comments (optional)').fill('Two outlets.');
    await register.click();

    await expect(form.getByRole('status')).toHaveText(messages.requestSent);
    await expect(form.getByLabel('Business name')).toHaveValue('');
    await expect(form.getByLabel('API Integration')).not.toBeChecked();

    const { registrations } = await adminList<{
      registrations: Array<{ business_name: string; email: string; interests: string[]; comments: string }>;
    }>(request, '/api/vendor-registration');
    expect(registrations.find((registration) => registration.business_name === business)).toMatchObject({
      email: 'meera@example.in',
      interests: ['PalmKiosk Setup', 'API Integration'],
      comments: 'Two outlets.',
    });
  });
});
