import type { UserRole } from '../db/schema';
import { AppError } from '../lib/app-error';
import { findStore, findStoreOfOwner, type Store } from './merchant-repository';
import type { MerchantDeps } from './merchant-deps';

/** The signed-in merchant's store and its ledger account. */
export interface SignedInStore extends Store {
  accountId: string;
}

/** The store the signed-in user owns; anyone who is not a merchant with a store is refused (403). */
export async function storeOfSignedInUser(
  deps: Pick<MerchantDeps, 'db' | 'ledger'>,
  user: { id: string; role: UserRole },
): Promise<SignedInStore> {
  const store = user.role === 'merchant' ? await findStoreOfOwner(deps.db, user.id) : undefined;
  if (!store) throw AppError.of('FORBIDDEN', 'merchantOnly');
  return { ...store, accountId: await deps.ledger.ensureMerchantAccount(store.id) };
}

/** The signed-in store with the session that acts for it: step-ups and contact codes are bound to it. */
export interface StoreSession extends SignedInStore {
  sessionId: string;
}

/**
 * The store a paired terminal belongs to (issue 22), for a palm payment taken on it without its owner
 * signed in beside it; a device of no store is refused (403).
 */
export async function storeOfTerminal(
  deps: Pick<MerchantDeps, 'db' | 'ledger'>,
  merchantId: string | null,
): Promise<SignedInStore> {
  const store = merchantId === null ? undefined : await findStore(deps.db, merchantId);
  if (!store) throw AppError.of('FORBIDDEN', 'deviceNotAllowed');
  return { ...store, accountId: await deps.ledger.ensureMerchantAccount(store.id) };
}
