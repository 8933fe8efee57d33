import { describe, expect, it } from 'vitest';

import {
  clearPendingPayment,
  markUncertain,
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

  it('keeps whether an answer under its key was lost', () => {
    const storage = memoryStorage();
    const pending = { amountText: '15', idempotencyKey: 'key-2', sentAt: new Date(0).toISOString() };
    writePendingPayment(markUncertain(pending), storage);
    expect(readPendingPayment(storage)).toEqual({ ...pending, uncertain: true });
    expect(paymentKeyFor('15', readPendingPayment(storage), () => 'new')).toBe('key-2');
    storage.setItem('hasta.terminal.pending-payment', JSON.stringify({ ...pending, uncertain: 'yes' }));
    expect(readPendingPayment(storage)).toBeNull();
  });
});
