import type { FastifyRequest } from 'fastify';
import type { MerchantDeps } from '../../merchant/merchant-deps';
import { storeOfSignedInUser, type SignedInStore, type StoreSession } from '../../merchant/signed-in-store';
import { requireUser } from '../../plugins/auth';

/** The signed-in merchant's store and its ledger account; anonymous callers get 401, anyone else 403. */
export async function requireMerchant(
  request: FastifyRequest,
  deps: Pick<MerchantDeps, 'db' | 'ledger'>,
): Promise<SignedInStore> {
  const auth = await requireUser(request);
  return storeOfSignedInUser(deps, auth.user);
}

/** The signed-in merchant's store and the session acting for it (for step-ups and contact codes). */
export async function requireStoreSession(
  request: FastifyRequest,
  deps: Pick<MerchantDeps, 'db' | 'ledger'>,
): Promise<StoreSession> {
  const auth = await requireUser(request);
  return { ...(await storeOfSignedInUser(deps, auth.user)), sessionId: auth.sessionId };
}
