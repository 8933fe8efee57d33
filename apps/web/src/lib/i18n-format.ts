import { formatInr } from '@hasta/ledger/money';
import type { PaiseShown } from '@hasta/ledger/money';
import i18n from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { localeOf } from './i18n-resources';
import type { AppLocale } from './i18n-resources';

/*
 * The one place the web app formats numbers, money, dates and times: in the page's language, en-IN in English
 * and hi-IN in Hindi (month names and day periods in Hindi). Digits stay Latin in both (`numberingSystem:
 * 'latn'`, what CLDR gives hi-IN today, written out so it cannot change under us): Indian apps in Hindi show
 * ₹1,234.50, never ₹१,२३४.५०. Lint keeps `Intl`, `toLocale…String` and `formatInr` out of the rest of the app.
 *
 * The functions without `use` read the current language when called: a component that calls them re-renders
 * on a language switch through its own `useTranslation`.
 */

const LATIN_DIGITS = { numberingSystem: 'latn' } as const;

/** Every Intl formatter made so far, by locale and options (a handful in all). */
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateTimeFormat(locale: AppLocale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `date:${locale}:${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!(format instanceof Intl.DateTimeFormat)) {
    format = new Intl.DateTimeFormat(locale, { ...options, ...LATIN_DIGITS });
    cache.set(key, format);
  }
  return format;
}

function numberFormat(locale: AppLocale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `number:${locale}:${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!(format instanceof Intl.NumberFormat)) {
    format = new Intl.NumberFormat(locale, { ...options, ...LATIN_DIGITS });
    cache.set(key, format);
  }
  return format;
}

/** A date with a short month ("14 Mar 2025", "14 मार्च 2025"). */
const SHORT_DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
/** A short date and a time ("14 Mar 2025, 12:00 pm"). */
const DATE_TIME: Intl.DateTimeFormatOptions = { ...SHORT_DATE, hour: '2-digit', minute: '2-digit' };
/** A time of day ("6:30 pm"). */
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

function parsed(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pageLocale = (): AppLocale => localeOf(i18n.language);

/** Numbers, rupees, percentages and dates for one language, with `Intl` in en-IN or hi-IN. */
export interface Formatters {
  locale: AppLocale;
  number: (value: number) => string;
  /**
   * Whole rupees (marketing figures, never wallet money, which is paise and formatted from its decimal text),
   * through the one INR formatter.
   */
  rupees: (value: number) => string;
  /** Wallet money: a decimal rupee string from the server, paise exact ("1234.50" -> "₹1,234.50"). */
  money: (rupees: string, options?: { paise?: PaiseShown }) => string;
  /** A fraction (0.999) as a percentage, with up to one decimal. */
  percent: (fraction: number) => string;
  date: (value: Date) => string;
  dateTime: (value: Date) => string;
}

export function createFormatters(locale: AppLocale): Formatters {
  const number = numberFormat(locale, {});
  const percent = numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const date = dateTimeFormat(locale, { dateStyle: 'medium' });
  const dateTime = dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    locale,
    number: (value) => number.format(value),
    rupees: (value) => formatInr(String(value), locale, { paise: 'never' }),
    money: (rupees, options) => formatInr(rupees, locale, options),
    percent: (fraction) => percent.format(fraction),
    date: (value) => date.format(value),
    dateTime: (value) => dateTime.format(value),
  };
}

/** The formatters of the page's language, new on a language switch. */
export function useFormatters(): Formatters {
  const { i18n: instance } = useTranslation();
  const locale = localeOf(instance.language);
  return useMemo(() => createFormatters(locale), [locale]);
}

/**
 * Wallet money (a decimal rupee string from the server, paise exact) in the page's language: "₹1,234.50";
 * with paise 'when-any', "₹200". A text that is not a decimal comes back as it is.
 */
export function formatMoney(rupees: string, options: { paise?: PaiseShown } = {}): string {
  return formatInr(rupees, pageLocale(), options);
}

/** An ISO time as a date and time with a short month in the page's language; the raw text if it does not parse. */
export function formatDateTime(iso: string): string {
  const date = parsed(iso);
  return date === null ? iso : dateTimeFormat(pageLocale(), DATE_TIME).format(date);
}

/** An ISO time as a date with a short month in the page's language; the raw text if it does not parse. */
export function formatShortDate(iso: string): string {
  const date = parsed(iso);
  return date === null ? iso : dateTimeFormat(pageLocale(), SHORT_DATE).format(date);
}

/** An ISO time as a time of day in the page's language; the raw text if it does not parse. */
export function formatTime(iso: string): string {
  const date = parsed(iso);
  return date === null ? iso : dateTimeFormat(pageLocale(), TIME).format(date);
}
