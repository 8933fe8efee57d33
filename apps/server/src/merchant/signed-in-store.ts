import type { UserRole } from '../db/schema';
import { AppError } from '../lib/app-error';
import { findStoreOfOwner, type Store } from './merchant-repository';
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
