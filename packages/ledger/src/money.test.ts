import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInrPaise, paiseToRupeesText, parseRupees, rupeesNumberToPaise } from './money';

describe('money', () => {
  it.each([
    ['0.01', 1n],
    ['1', 100n],
    ['12.5', 1250n],
    ['12.50', 1250n],
    [' 200000 ', 20_000_000n],
    ['999999999999.99', 99_999_999_999_999n],
  ])('parses %j as %s paise', (text, paise) => {
    expect(parseRupees(text)).toBe(paise);
  });

  it.each(['', '-1', '+1', '1e3', '1.234', '.5', '1.', 'abc', '1,000', 'NaN', 'Infinity', '1234567890123'])(
    'refuses %j',
    (text) => {
      expect(parseRupees(text)).toBeNull();
    },
  );

  it('reads JSON numbers exactly, where parseFloat-style arithmetic would drift', () => {
    expect(rupeesNumberToPaise(0.1)).toBe(10n);
    expect(rupeesNumberToPaise(1.005)).toBeNull();
    expect(rupeesNumberToPaise(19.99)).toBe(1999n);
    expect(rupeesNumberToPaise(1e21)).toBeNull();
    expect(rupeesNumberToPaise(-1)).toBeNull();
    expect(rupeesNumberToPaise(Number.NaN)).toBeNull();
  });

  it('round-trips every amount through text', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 99_999_999_999_999n }), (paise) => {
        expect(parseRupees(paiseToRupeesText(paise))).toBe(paise);
      }),
    );
  });

  it('formats negative amounts for the system account', () => {
    expect(paiseToRupeesText(-1250n)).toBe('-12.50');
    expect(paiseToRupeesText(5n)).toBe('0.05');
  });

  it.each([
    [20_000_000n, '₹2,00,000'],
    [100_000n, '₹1,000'],
    [100n, '₹1'],
    [150n, '₹1.50'],
    [1n, '₹0.01'],
  ])('reads %s paise as %j', (paise, text) => {
    expect(formatInrPaise(paise)).toBe(text);
  });
});
