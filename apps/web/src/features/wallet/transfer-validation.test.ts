import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import { samePhone, validateTransfer } from './transfer-validation';

const sender = { email: 'me@example.com', phone: '+919876543210' };
const ok = { receiverEmail: 'you@example.com', receiverPhone: '', amount: '10.50' };

describe('validateTransfer (spec §5.10)', () => {
  it('asks for a receiver first', () => {
    expect(validateTransfer({ receiverEmail: ' ', receiverPhone: '', amount: '' }, sender)).toBe(
      messages.receiverRequired,
    );
  });
  it('asks for an amount', () => {
    expect(validateTransfer({ ...ok, amount: '' }, sender)).toBe(messages.amountRequired);
  });
  it('refuses zero, negative and three decimals', () => {
    expect(validateTransfer({ ...ok, amount: '0' }, sender)).toBe(messages.amountPositive);
    expect(validateTransfer({ ...ok, amount: '-5' }, sender)).toBe(messages.amountPositive);
    expect(validateTransfer({ ...ok, amount: '1.234' }, sender)).toBe(messages.amountTooPrecise);
  });
  it('refuses sending to yourself', () => {
    expect(validateTransfer({ ...ok, receiverEmail: 'ME@example.com ' }, sender)).toBe(
      messages.selfSendEmail,
    );
    expect(validateTransfer({ ...ok, receiverEmail: '', receiverPhone: '98765 43210' }, sender)).toBe(
      messages.selfSendPhone,
    );
  });
  it('accepts a good transfer', () => {
    expect(validateTransfer(ok, sender)).toBeNull();
  });
});

describe('helpers', () => {
  it('compares phones with or without +91', () => {
    expect(samePhone('+91 98765 43210', '+919876543210')).toBe(true);
    expect(samePhone('9876543211', '+919876543210')).toBe(false);
  });
});
