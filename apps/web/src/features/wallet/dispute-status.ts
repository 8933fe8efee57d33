import type { Dispute } from '@hasta/contracts/palm-trust';

/** Each payment's current dispute, by transaction id, from the payer's list (newest first). */
export function disputesByTransaction(disputes: readonly Dispute[]): ReadonlyMap<string, Dispute> {
  const byTransaction = new Map<string, Dispute>();
  for (const dispute of disputes) {
    // The first seen for a payment is its newest.
    if (!byTransaction.has(dispute.transaction.id)) byTransaction.set(dispute.transaction.id, dispute);
  }
  return byTransaction;
}

/** A dispute's state as the payer reads it beside the payment. */
export function disputeStatusText(dispute: Pick<Dispute, 'status' | 'reason'>): string {
  if (dispute.status === 'refunded') return 'Refunded';
  if (dispute.status === 'rejected') return `Rejected: ${dispute.reason ?? 'no reason given'}`;
  return 'Reported';
}
