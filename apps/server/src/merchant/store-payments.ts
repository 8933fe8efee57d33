import type { merchantPaymentSchema } from '@hasta/contracts/merchant';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { z } from 'zod';
import { listTransfers, partiesSeenBy, statusOf } from '../ledger/queries';
import type { MerchantDeps } from './merchant-deps';
import type { SignedInStore } from './signed-in-store';

export type StorePayment = z.infer<typeof merchantPaymentSchema>;

/** The list shows the newest transfers of the store's account up to this many, then keeps those into it. */
export const STORE_PAYMENTS_LIMIT = 500;

/** Payments the store received, newest first, with their status and who paid (a palm payer masked). */
export async function storePayments(
  deps: Pick<MerchantDeps, 'db'>,
  store: SignedInStore,
): Promise<StorePayment[]> {
  const views = await listTransfers(deps.db, {
    accountId: store.accountId,
    limit: STORE_PAYMENTS_LIMIT,
    includeReversed: true,
  });
  return views
    .filter((view) => view.credit_account_id === store.accountId)
    .map((view) => {
      // A palm payer is masked for the store (its initial and "a•••@d•••"); see partiesSeenBy.
      const parties = partiesSeenBy(view, { accountId: store.accountId });
      return {
        txid: view.id,
        amount: paiseToRupeesText(view.amount_paise),
        status: statusOf(view),
        created_at: view.created_at.toISOString(),
        customer: parties.from,
        ...(parties.fromName === null ? {} : { customer_name: parties.fromName }),
      };
    });
}
