import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createFormatters, formatDateTime, formatMoney, formatShortDate, formatTime } from './i18n-format';

/** Digits a Hindi reader of Indian apps does not expect: Devanagari ones (०-९). */
const DEVANAGARI_DIGITS = /[०-९]/;

describe('createFormatters', () => {
  it('groups numbers the Indian way in both languages', () => {
    for (const locale of ['en-IN', 'hi-IN'] as const) {
      const format = createFormatters(locale);
      expect(format.number(12_450)).toBe('12,450');
      expect(format.number(1_000_000)).toBe('10,00,000');
      expect(format.rupees(12_450)).toBe('₹12,450');
      expect(format.money('123456.50')).toBe('₹1,23,456.50');
      expect(format.money('200.00', { paise: 'when-any' })).toBe('₹200');
      expect(format.percent(0.999)).toBe('99.9%');
    }
  });

  it('names months in the page language', () => {
    const day = new Date(Date.UTC(2025, 2, 14, 6, 30));
    expect(createFormatters('en-IN').date(day)).toBe('14 Mar 2025');
    expect(createFormatters('hi-IN').date(day)).toMatch(/मार्च/);
  });
});

describe('the page-language formatters', () => {
  const when = '2025-03-14T06:30:00.000Z';

  beforeAll(async () => {
    await i18n.init({ lng: 'en', resources: {}, initAsync: false });
  });

  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('format money, dates and times in English (India)', () => {
    expect(formatMoney('1234.5')).toBe('₹1,234.50');
    expect(formatShortDate(when)).toMatch(/^14 Mar 2025$/);
    expect(formatDateTime(when)).toMatch(/^14 Mar 2025, \d{2}:\d{2} (am|pm)$/);
    expect(formatTime(when)).toMatch(/^\d{1,2}:\d{2} (am|pm)$/);
  });

  it('follow a switch to Hindi: Hindi month names, ₹ and Latin digits', async () => {
    await i18n.changeLanguage('hi');
    expect(formatMoney('123456.5')).toBe('₹1,23,456.50');
    expect(formatShortDate(when)).toBe('14 मार्च 2025');
    expect(formatDateTime(when)).toMatch(/^14 मार्च 2025, \d{2}:\d{2} /);
    expect(formatTime(when)).toMatch(/^\d{1,2}:\d{2} /);
    for (const text of [formatMoney('123456.5'), formatDateTime(when), formatTime(when)]) {
      expect(text).not.toMatch(DEVANAGARI_DIGITS);
    }
  });

  it('return a text that is not a time or an amount as it came', () => {
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatTime('soon')).toBe('soon');
    expect(formatMoney('N/A')).toBe('N/A');
  });
});
