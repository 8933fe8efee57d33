import { describe, expect, it } from 'vitest';

import { formForPayee, readTransferPrefill } from './transfer-prefill';

const store = {
  payee_kind: 'store' as const,
  payee_name: 'Chai Point',
  receiverEmail: 'shop@example.in',
  receiverPhone: '+919876543210',
  amount: '40.00',
};

describe('transfer prefill from a scanned code', () => {
  it('reads a valid router state and nothing else', () => {
    expect(readTransferPrefill({ qrPayee: store })).toEqual(store);
    for (const state of [
      null,
      undefined,
      'x',
      {},
      { qrPayee: { ...store, amount: 40 } },
      { qrPayee: null },
    ]) {
      expect(readTransferPrefill(state)).toBeNull();
    }
  });

  it('fills one address, the email first, and the fixed amount', () => {
    expect(formForPayee(store)).toEqual({
      receiverEmail: 'shop@example.in',
      receiverPhone: '',
      amount: '40.00',
    });
    expect(formForPayee({ ...store, receiverEmail: null, amount: null }, '12')).toEqual({
      receiverEmail: '',
      receiverPhone: '+919876543210',
      amount: '12',
    });
  });
});
