import { formatInr } from '@hasta/ledger/money';
import i18n from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { localeOf } from './i18n-resources';
import type { AppLocale } from './i18n-resources';

/** Numbers, rupees, percentages and dates for the page's language, with `Intl` in en-IN or hi-IN. */
export interface Formatters {
  locale: AppLocale;
  number: (value: number) => string;
  /**
   * Whole rupees (marketing figures, never wallet money, which is paise and formatted from its decimal text),
   * through the one INR formatter.
   */
  rupees: (value: number) => string;
  /** A fraction (0.999) as a percentage, with up to one decimal. */
  percent: (fraction: number) => string;
  date: (value: Date) => string;
  dateTime: (value: Date) => string;
}

export function createFormatters(locale: AppLocale): Formatters {
  const number = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    locale,
    number: (value) => number.format(value),
    rupees: (value) => formatInr(String(value), locale, { paise: 'never' }),
    percent: (fraction) => percent.format(fraction),
    date: (value) => date.format(value),
    dateTime: (value) => dateTime.format(value),
  };
}

export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  return useMemo(() => createFormatters(locale), [locale]);
}

/**
 * Wallet money (a decimal rupee string from the server, paise exact) in the page's language: en-IN or hi-IN.
 * Components that call it re-render on a language switch through their `useTranslation`.
 */
export function formatMoney(rupees: string): string {
  return formatInr(rupees, localeOf(i18n.language));
}

const shortDates = new Map<AppLocale, Intl.DateTimeFormat>();

/** An ISO time as a date with a short month in the page's language; the raw text if it does not parse. */
export function formatShortDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const locale = localeOf(i18n.language);
  let format = shortDates.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' });
    shortDates.set(locale, format);
  }
  return format.format(date);
}
