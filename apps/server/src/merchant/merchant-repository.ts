import type { Kysely, Selectable, Transaction } from 'kysely';
import type { MerchantsTable, Schema } from '../db/schema';

type Db = Kysely<Schema> | Transaction<Schema>;

/** A store as the merchant domain sees it. */
export interface Store {
  id: string;
  storeName: string;
  ownerUserId: string;
  contactEmail: string | null;
  contactPhone: string | null;
  /** The last contact email / phone whose code came back: the only ones payers and store notices see. */
  verifiedContactEmail: string | null;
  verifiedContactPhone: string | null;
  notifyEmail: boolean;
  notifySms: boolean;
  createdAt: Date;
}

/** What the store's owner may change in its settings. */
export interface StoreSettings {
  storeName: string;
  contactEmail: string | null;
  contactPhone: string | null;
  verifiedContactEmail: string | null;
  verifiedContactPhone: string | null;
  notifyEmail: boolean;
  notifySms: boolean;
}

function toStore(row: Selectable<MerchantsTable>): Store {
  return {
    id: row.id,
    storeName: row.store_name,
    ownerUserId: row.owner_user_id,
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    verifiedContactEmail: row.verified_contact_email,
    verifiedContactPhone: row.verified_contact_phone,
    notifyEmail: row.notify_email,
    notifySms: row.notify_sms,
    createdAt: row.created_at,
  };
}

export async function findStore(db: Db, id: string): Promise<Store | undefined> {
  const row = await db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toStore(row) : undefined;
}

/** The store a user owns (one at most: owner_user_id is unique). */
export async function findStoreOfOwner(db: Db, ownerUserId: string): Promise<Store | undefined> {
  const row = await db
    .selectFrom('merchants')
    .selectAll()
    .where('owner_user_id', '=', ownerUserId)
    .executeTakeFirst();
  return row ? toStore(row) : undefined;
}

/** The newest stores first, at most `limit`. */
export async function listStores(db: Db, limit: number): Promise<Store[]> {
  const rows = await db
    .selectFrom('merchants')
    .selectAll()
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toStore);
}

/** Writes a store; a second store for the same owner or vendor registration is a unique violation. */
export async function insertStore(
  trx: Transaction<Schema>,
  store: {
    ownerUserId: string;
    storeName: string;
    contactEmail: string;
    contactPhone: string;
    /** The contact already proven (the owner's sign-in email), or null. */
    verifiedContactEmail: string | null;
    vendorRegistrationId: string;
  },
): Promise<Store> {
  const row = await trx
    .insertInto('merchants')
    .values({
      owner_user_id: store.ownerUserId,
      store_name: store.storeName,
      contact_email: store.contactEmail,
      contact_phone: store.contactPhone,
      verified_contact_email: store.verifiedContactEmail,
      vendor_registration_id: store.vendorRegistrationId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toStore(row);
}

export async function saveStoreSettings(db: Db, id: string, settings: StoreSettings): Promise<Store> {
  const row = await db
    .updateTable('merchants')
    .set({
      store_name: settings.storeName,
      contact_email: settings.contactEmail,
      contact_phone: settings.contactPhone,
      verified_contact_email: settings.verifiedContactEmail,
      verified_contact_phone: settings.verifiedContactPhone,
      notify_email: settings.notifyEmail,
      notify_sms: settings.notifySms,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toStore(row);
}

/**
 * The store's contact `address` on `channel` is proven (its code came back): payers see it from now on, as
 * long as it is still the contact the settings hold. Answers the store, or undefined if it no longer is.
 */
export async function markContactVerified(
  db: Db,
  id: string,
  channel: 'email' | 'phone',
  address: string,
): Promise<Store | undefined> {
  const query = db.updateTable('merchants').where('id', '=', id);
  const row = await (
    channel === 'email'
      ? query.set({ verified_contact_email: address }).where('contact_email', '=', address)
      : query.set({ verified_contact_phone: address }).where('contact_phone', '=', address)
  )
    .returningAll()
    .executeTakeFirst();
  return row ? toStore(row) : undefined;
}

/** The owner's own sign-in email and phone: addresses the owner already proved. */
export async function findOwnerContacts(
  db: Db,
  ownerUserId: string,
): Promise<{ email: string | null; phone: string | null }> {
  return db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('id', '=', ownerUserId)
    .executeTakeFirstOrThrow();
}

/** Locks the store's row until the transaction ends: two requests counting its codes take turns. */
export async function lockStore(trx: Transaction<Schema>, id: string): Promise<void> {
  await trx.selectFrom('merchants').select('id').where('id', '=', id).forUpdate().execute();
}
