import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInr, paiseToRupeesText, parseRupees, rupeesNumberToPaise } from './money';

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
  ])('reads %s paise as %j, paise only when there are any', (paise, text) => {
    expect(formatInr(paiseToRupeesText(paise), 'en-IN', { paise: 'when-any' })).toBe(text);
  });

  it.each([
    ['1234.50', '₹1,234.50'],
    ['0.05', '₹0.05'],
    ['200000', '₹2,00,000.00'],
    ['-12.5', '-₹12.50'],
    [' 12.50 ', '₹12.50'],
    ['99999999999999.99', '₹9,99,99,99,99,99,999.99'],
  ])('shows the decimal %j as %j in both languages', (rupees, text) => {
    for (const locale of ['en-IN', 'hi-IN'] as const) expect(formatInr(rupees, locale)).toBe(text);
  });

  it('keeps every paisa of amounts a float would round', () => {
    // 2^53 + 1 paise: through a float it would read ₹9,00,71,99,25,47,409.94.
    expect(formatInr(paiseToRupeesText(9_007_199_254_740_993n), 'en-IN')).toBe('₹9,00,71,99,25,47,409.93');
  });

  it('rounds whole rupees half up, for figures shown without paise', () => {
    expect(formatInr('12450', 'hi-IN', { paise: 'never' })).toBe('₹12,450');
    expect(formatInr('12450.5', 'en-IN', { paise: 'never' })).toBe('₹12,451');
    expect(formatInr('12450.49', 'en-IN', { paise: 'never' })).toBe('₹12,450');
  });

  it.each(['', 'abc', '12,50', '1e3', 'NaN', '₹5'])('returns %j, not a decimal, as it came', (text) => {
    expect(formatInr(text, 'en-IN')).toBe(text);
  });
});
