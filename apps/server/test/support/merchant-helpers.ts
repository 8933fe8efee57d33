import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database';
import { bearer, lastMessage, logIn, uniqueEmail } from './auth-helpers';

export interface ApprovedMerchant {
  token: string;
  merchantId: string;
  vendorId: string;
  email: string;
  userId: string;
}

/**
 * A merchant made the way the product makes one: a vendor registers, an admin approves, the owner logs in
 * with the emailed temporary password and replaces it.
 */
export async function approvedMerchant(
  app: FastifyInstance,
  database: Database,
  adminToken: string,
  businessName = 'Chai Point',
): Promise<ApprovedMerchant> {
  const email = uniqueEmail('shop');
  const registered = await app.inject({
    method: 'POST',
    url: '/api/vendor-registration',
    payload: {
      business_name: businessName,
      owner_name: 'Lakshmi',
      email,
      phone: '9876543210',
      address: 'Koramangala',
      interests: ['PalmPOS Integration'],
    },
  });
  if (registered.statusCode !== 201) throw new Error(`vendor registration: ${registered.body}`);
  const list = await app.inject({
    method: 'GET',
    url: '/api/vendor-registration',
    headers: bearer(adminToken),
  });
  const vendor = list
    .json<{ registrations: { id: string; email: string }[] }>()
    .registrations.find((registration) => registration.email === email);
  if (!vendor) throw new Error('vendor registration not listed');
  const approved = await app.inject({
    method: 'POST',
    url: '/api/merchants',
    headers: bearer(adminToken),
    payload: { vendorRegistrationId: vendor.id },
  });
  if (approved.statusCode !== 200) throw new Error(`approval: ${approved.body}`);
  const temporary = /temporary password (\S+)\./.exec((await lastMessage(database, email)).body)?.[1];
  if (!temporary) throw new Error('no temporary password in the welcome email');
  // The owner's first sign-in registers their passkey (issue 23), then replaces the temporary password.
  const login = await logIn(app, { email, password: temporary });
  const changed = await app.inject({
    method: 'POST',
    url: '/api/auth/change-password',
    headers: bearer(login.token),
    payload: { originalPassword: temporary, newPassword: 'shop owner secret' },
  });
  if (changed.statusCode !== 200) throw new Error(`password change: ${changed.body}`);
  return {
    token: changed.json<{ token: string }>().token,
    merchantId: approved.json<{ merchant: { id: string } }>().merchant.id,
    vendorId: vendor.id,
    email,
    userId: login.user.id,
  };
}
