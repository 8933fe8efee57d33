import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import { checkAmount, checkOptionalAmount } from './amount';

describe('store amounts (spec §5.9)', () => {
  it.each([
    ['', messages.amountRequired],
    ['   ', messages.amountRequired],
    ['abc', messages.amountPositive],
    ['-5', messages.amountPositive],
    ['0', messages.amountPositive],
    ['0.00', messages.amountPositive],
    ['1e3', messages.amountPositive],
    ['12.345', messages.amountTooPrecise],
  ])('refuses %j with %j', (typed, error) => {
    expect(checkAmount(typed)).toEqual({ ok: false, error });
  });

  it('reads a valid amount exactly, in paise', () => {
    expect(checkAmount(' 250.5 ')).toEqual({ ok: true, paise: 25_050n, text: '250.5' });
    expect(checkAmount('0.01')).toEqual({ ok: true, paise: 1n, text: '0.01' });
  });

  it('takes an empty optional amount as none', () => {
    expect(checkOptionalAmount('')).toEqual({ ok: true, paise: null, text: null });
    expect(checkOptionalAmount('0')).toEqual({ ok: false, error: messages.amountPositive });
    expect(checkOptionalAmount('10')).toEqual({ ok: true, paise: 1_000n, text: '10' });
  });
});
