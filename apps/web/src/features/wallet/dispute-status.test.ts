import type { Dispute } from '@hasta/contracts/palm-trust';
import { describe, expect, it } from 'vitest';

import { disputeStatusText, disputesByTransaction } from './dispute-status';

function dispute(
  id: string,
  transactionId: string,
  status: Dispute['status'],
  reason: string | null = null,
): Dispute {
  return {
    id,
    status,
    opened_via: 'history',
    transaction: {
      id: transactionId,
      amount: '25.50',
      amount_paise: '2550',
      created_at: '2026-11-26T10:00:00.000Z',
    },
    payee: 'R•••',
    device: null,
    similarity: 97.5,
    reason,
    refunded_from: status === 'refunded' ? 'payee' : null,
    created_at: '2026-11-26T10:05:00.000Z',
    resolved_at: status === 'open' ? null : '2026-11-26T11:00:00.000Z',
  };
}

describe('disputes beside the History', () => {
  it('keeps the newest dispute of each payment (the list is newest first)', () => {
    const newer = dispute('d2', 't1', 'open');
    const older = dispute('d1', 't1', 'rejected', 'It was you');
    const other = dispute('d3', 't2', 'refunded');
    const byTransaction = disputesByTransaction([newer, other, older]);
    expect([...byTransaction.keys()]).toEqual(['t1', 't2']);
    expect(byTransaction.get('t1')).toBe(newer);
    expect(byTransaction.get('t2')).toBe(other);
    expect(disputesByTransaction([]).size).toBe(0);
  });

  it('says Reported, Refunded, or Rejected with the admin’s reason', () => {
    expect(disputeStatusText({ status: 'open', reason: null })).toBe('Reported');
    expect(disputeStatusText({ status: 'refunded', reason: null })).toBe('Refunded');
    expect(disputeStatusText({ status: 'rejected', reason: 'The scan matched at the store' })).toBe(
      'Rejected: The scan matched at the store',
    );
    expect(disputeStatusText({ status: 'rejected', reason: null })).toBe('Rejected: no reason given');
  });
});
