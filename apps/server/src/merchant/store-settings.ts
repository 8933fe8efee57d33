import type { merchantSettingsSchema } from '@hasta/contracts/merchant';
import type { z } from 'zod';
import { saveStoreSettings as saveSettings, type Store } from './merchant-repository';
import type { MerchantDeps } from './merchant-deps';
import type { SignedInStore } from './signed-in-store';

export type StoreSettingsAnswer = z.infer<typeof merchantSettingsSchema>;

function toSettings(store: Store): StoreSettingsAnswer {
  return {
    store_name: store.storeName,
    contact_email: store.contactEmail,
    contact_phone: store.contactPhone,
    notify_email: store.notifyEmail,
    notify_sms: store.notifySms,
  };
}

/** The store's name, contacts and notice channels. */
export function storeSettings(store: SignedInStore): StoreSettingsAnswer {
  return toSettings(store);
}

/** Saves the store's settings (the caller's own store only) and answers them as saved. */
export async function saveStoreSettings(
  deps: Pick<MerchantDeps, 'db'>,
  store: SignedInStore,
  settings: StoreSettingsAnswer,
): Promise<StoreSettingsAnswer> {
  const saved = await saveSettings(deps.db, store.id, {
    storeName: settings.store_name,
    contactEmail: settings.contact_email,
    contactPhone: settings.contact_phone,
    notifyEmail: settings.notify_email,
    notifySms: settings.notify_sms,
  });
  return toSettings(saved);
}
