import type { merchantSummarySchema } from '@hasta/contracts/merchant';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { z } from 'zod';
import type { MerchantDeps } from './merchant-deps';
import { pendingPayoutTotals, settledPayoutTotal } from './payout-repository';
import { qrCodeTotals } from './qr-code-repository';
import { storeSales } from './sales-repository';
import type { SignedInStore } from './signed-in-store';

export type StoreSummary = z.infer<typeof merchantSummarySchema>;

/** A share of `attempts` in percent with one decimal (0 when there were none). */
export function successRatePercent(completed: number, attempts: number): number {
  return attempts === 0 ? 0 : Math.round((completed / attempts) * 1000) / 10;
}

/**
 * The store's figures (spec §3 "Merchant summary"), from the ledger: the balance and what pending withdrawals
 * leave of it, and totals over every payment the store ever received, summed by the database.
 */
export async function storeSummary(
  deps: Pick<MerchantDeps, 'db' | 'ledger'>,
  store: SignedInStore,
): Promise<StoreSummary> {
  const [account, sales, withdrawnPaise, pending, qrCodes] = await Promise.all([
    deps.ledger.account(store.accountId),
    storeSales(deps.db, store.accountId),
    settledPayoutTotal(deps.db, store.id),
    pendingPayoutTotals(deps.db, store.id),
    qrCodeTotals(deps.db, store.id),
  ]);
  if (!account) throw new Error(`ledger account ${store.accountId} of store ${store.id} is missing`);
  const balancePaise = account.creditsPosted - account.debitsPosted;
  return {
    store_name: store.storeName,
    balance: paiseToRupeesText(balancePaise),
    available_balance: paiseToRupeesText(balancePaise - account.debitsPending),
    total_sales: paiseToRupeesText(sales.salesPaise),
    total_transactions: sales.completed,
    average_transaction: paiseToRupeesText(
      sales.completed === 0 ? 0n : sales.salesPaise / BigInt(sales.completed),
    ),
    success_rate: successRatePercent(sales.completed, sales.attempts),
    total_withdrawals: paiseToRupeesText(withdrawnPaise),
    pending_withdrawal_count: pending.count,
    pending_withdrawals: paiseToRupeesText(pending.paise),
    total_customers: sales.customers,
    total_qr_codes_generated: qrCodes.codes,
    total_qr_scans: qrCodes.scans,
    total_palm_scans: sales.palmScans,
  };
}
