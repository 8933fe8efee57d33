import type { Kysely, Transaction } from 'kysely';
import type { Schema, UserRole } from '../db/schema';

/** A vendor's registration, as approving it needs it. */
export interface VendorRegistration {
  id: string;
  businessName: string;
  ownerName: string;
  email: string;
  phone: string;
}

export async function findVendorRegistration(
  db: Kysely<Schema>,
  id: string,
): Promise<VendorRegistration | undefined> {
  const row = await db
    .selectFrom('vendor_registrations')
    .select(['id', 'business_name', 'owner_name', 'email', 'phone'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        businessName: row.business_name,
        ownerName: row.owner_name,
        email: row.email,
        phone: row.phone,
      }
    : undefined;
}

/** The user holding an email address, with the role that decides whether they may own a store. */
export async function findUserByEmail(
  trx: Transaction<Schema>,
  email: string,
): Promise<{ id: string; role: UserRole } | undefined> {
  return trx.selectFrom('users').select(['id', 'role']).where('email', '=', email).executeTakeFirst();
}

export async function promoteToMerchant(trx: Transaction<Schema>, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ role: 'merchant', updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

/** A new merchant user who must replace the temporary password at first login. Returns the user's id. */
export async function createMerchantUser(
  trx: Transaction<Schema>,
  user: { email: string; username: string; temporaryPasswordHash: string },
): Promise<string> {
  const row = await trx
    .insertInto('users')
    .values({
      email: user.email,
      username: user.username,
      role: 'merchant',
      password_hash: user.temporaryPasswordHash,
      must_change_password: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
