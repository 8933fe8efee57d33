import type { merchantSchema } from '@hasta/contracts/merchant';
import type { z } from 'zod';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/app-error';
import { generatePassword, hashPassword } from '../lib/password';
import { insertStore, listStores, type Store } from './merchant-repository';
import type { MerchantDeps } from './merchant-deps';
import {
  createMerchantUser,
  findUserByEmail,
  findVendorRegistration,
  promoteToMerchant,
} from './onboarding-repository';

export type MerchantAnswer = z.infer<typeof merchantSchema>;

/** The admin's list holds this many stores, newest first. */
export const MERCHANT_LIST_LIMIT = 500;

function toMerchantAnswer(store: Store): MerchantAnswer {
  return {
    id: store.id,
    store_name: store.storeName,
    owner_user_id: store.ownerUserId,
    contact_email: store.contactEmail,
    contact_phone: store.contactPhone,
    created_at: store.createdAt.toISOString(),
  };
}

/**
 * An admin approves a vendor registration: its email's user becomes the store's owner (promoted, or created
 * with a temporary password to replace at first login), the store and its ledger account are opened, and the
 * owner is told how to log in at `publicOrigin`. An admin's email, or a registration approved before, is a
 * conflict.
 */
export async function approveVendor(
  deps: Pick<MerchantDeps, 'db' | 'ledger' | 'messenger'>,
  input: { vendorRegistrationId: string; publicOrigin: string },
): Promise<MerchantAnswer> {
  const vendor = await findVendorRegistration(deps.db, input.vendorRegistrationId);
  if (!vendor) throw AppError.of('NOT_FOUND', 'vendorNotFound');
  const temporary = generatePassword();
  const temporaryPasswordHash = await hashPassword(temporary);
  let createdUser = false;
  const store = await deps.db
    .transaction()
    .execute(async (trx) => {
      const existing = await findUserByEmail(trx, vendor.email);
      if (existing?.role === 'admin') throw AppError.of('CONFLICT', 'vendorAlreadyApproved');
      let ownerUserId: string;
      if (existing) {
        await promoteToMerchant(trx, existing.id);
        ownerUserId = existing.id;
      } else {
        createdUser = true;
        ownerUserId = await createMerchantUser(trx, {
          email: vendor.email,
          username: vendor.ownerName.slice(0, 100).padEnd(2, '.'),
          temporaryPasswordHash,
        });
      }
      return insertStore(trx, {
        ownerUserId,
        storeName: vendor.businessName,
        contactEmail: vendor.email,
        contactPhone: vendor.phone,
        // The owner signs in with the password emailed there: that address is proven; the phone is not.
        verifiedContactEmail: vendor.email,
        vendorRegistrationId: vendor.id,
      });
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'vendorAlreadyApproved');
      throw error;
    });
  await deps.ledger.ensureMerchantAccount(store.id);
  await deps.messenger.send({
    channel: 'email',
    to: vendor.email,
    subject: 'Your Hasta merchant account is ready',
    body: createdUser
      ? `Welcome to Hasta, ${vendor.businessName}. Log in at ${input.publicOrigin}/login with ${vendor.email} and the temporary password ${temporary}. You will be asked to choose your own password first.`
      : `Welcome to Hasta, ${vendor.businessName}. Your account ${vendor.email} is now a merchant account: log in at ${input.publicOrigin}/login and open the merchant dashboard.`,
  });
  return toMerchantAnswer(store);
}

/** The admin's list of stores, newest first. */
export async function listMerchants(deps: Pick<MerchantDeps, 'db'>): Promise<MerchantAnswer[]> {
  return (await listStores(deps.db, MERCHANT_LIST_LIMIT)).map(toMerchantAnswer);
}
