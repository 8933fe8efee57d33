import { describe, expect, it } from 'vitest';

import { createFormatters } from './i18n-format';

describe('createFormatters', () => {
  it('groups numbers the Indian way in both languages', () => {
    for (const locale of ['en-IN', 'hi-IN'] as const) {
      const format = createFormatters(locale);
      expect(format.number(12_450)).toBe('12,450');
      expect(format.number(1_000_000)).toBe('10,00,000');
      expect(format.rupees(12_450)).toBe('₹12,450');
      expect(format.percent(0.999)).toBe('99.9%');
    }
  });

  it('names months in the page language', () => {
    const day = new Date(Date.UTC(2025, 2, 14, 6, 30));
    expect(createFormatters('en-IN').date(day)).toBe('14 Mar 2025');
    expect(createFormatters('hi-IN').date(day)).toMatch(/मार्च/);
  });
});
