import { describe, expect, it } from 'vitest';

import {
  clearPendingPayment,
  paymentKeyFor,
  readPendingPayment,
  writePendingPayment,
} from './pending-payment';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the pending terminal payment', () => {
  it('is kept until cleared, and read back as it was', () => {
    const storage = memoryStorage();
    expect(readPendingPayment(storage)).toBeNull();
    const pending = { amountText: '250', idempotencyKey: 'key-1', sentAt: new Date(0).toISOString() };
    writePendingPayment(pending, storage);
    expect(readPendingPayment(storage)).toEqual(pending);
    clearPendingPayment(storage);
    expect(readPendingPayment(storage)).toBeNull();
  });

  it('ignores what is not a pending payment', () => {
    const storage = memoryStorage();
    storage.setItem(
      'hasta.terminal.pending-payment',
      '{"amountText":"1e9","idempotencyKey":"k","sentAt":"x"}',
    );
    expect(readPendingPayment(storage)).toBeNull();
    storage.setItem('hasta.terminal.pending-payment', 'not json');
    expect(readPendingPayment(storage)).toBeNull();
  });

  it('sends the same payment again under the same key, another amount under a new one', () => {
    const pending = { amountText: '250', idempotencyKey: 'key-1', sentAt: new Date(0).toISOString() };
    expect(paymentKeyFor('250', pending, () => 'new')).toBe('key-1');
    expect(paymentKeyFor('251', pending, () => 'new')).toBe('new');
    expect(paymentKeyFor('250', null, () => 'new')).toBe('new');
  });
});
