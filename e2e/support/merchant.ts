import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import { expect } from '@playwright/test';

import { uniqueEmail, uniquePassword } from './accounts';
import { nextMessage } from './outbox';
import { passSecondFactor } from './passkeys';
import { adminSession } from './wallet';

/** A merchant made for one test, with what it takes to log in. */
export interface MerchantAccount {
  contact: string;
  channel: 'email';
  password: string;
  merchantId: string;
  storeName: string;
}

/** The owner and address every merchant made here registers with (data: shown as typed, in any language). */
export const VENDOR_OWNER_NAME = 'Lakshmi Rao';
export const VENDOR_ADDRESS = '80 Feet Road, Koramangala, Bengaluru';

/** The admin approves the vendor registration made with `email` (POST /api/merchants) and returns its merchant id. */
export async function approveVendor(admin: APIRequestContext, email: string): Promise<string> {
  const listed = await admin.get('/api/vendor-registration');
  expect(listed.status(), await listed.text()).toBe(200);
  const { registrations } = (await listed.json()) as { registrations: { id: string; email: string }[] };
  const vendor = registrations.find((registration) => registration.email === email);
  expect(vendor, `a vendor registration for ${email}`).toBeDefined();
  const approved = await admin.post('/api/merchants', { data: { vendorRegistrationId: vendor!.id } });
  expect(approved.status(), await approved.text()).toBe(200);
  return ((await approved.json()) as { merchant: { id: string } }).merchant.id;
}

/** The temporary password in the welcome email an approval sends. */
export function temporaryPasswordIn(body: string): string {
  const match = /temporary password (\S+)\./.exec(body);
  if (match?.[1] === undefined) throw new Error(`no temporary password in: ${body}`);
  return match[1];
}

/**
 * A merchant made entirely through the API, the way the product makes one: vendor registration, admin
 * approval, login with the emailed temporary password, and the forced password change.
 */
export async function createMerchant(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  storeName: string,
): Promise<MerchantAccount> {
  const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
  const admin = await adminSession(playwright, baseURL);
  try {
    const email = uniqueEmail();
    const registered = await request.post('/api/vendor-registration', {
      data: {
        business_name: storeName,
        owner_name: VENDOR_OWNER_NAME,
        email,
        phone: '+91 98765 43210',
        address: VENDOR_ADDRESS,
        interests: ['PalmPOS Integration'],
      },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    let merchantId = '';
    const welcome = await nextMessage(request, email, async () => {
      merchantId = await approveVendor(admin, email);
    });
    const temporary = temporaryPasswordIn(welcome.body);
    const login = await request.post('/api/auth/login', { data: { email, password: temporary } });
    expect(login.status(), await login.text()).toBe(200);
    // The owner's first sign-in registers their passkey (issue 23).
    await passSecondFactor(
      request,
      email,
      ((await login.json()) as { second_factor?: 'passkey_registration' }).second_factor,
    );
    const password = uniquePassword();
    const changed = await request.post('/api/auth/change-password', {
      data: { originalPassword: temporary, newPassword: password },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    return { contact: email, channel: 'email', password, merchantId, storeName };
  } finally {
    await request.dispose();
    await admin.dispose();
  }
}
