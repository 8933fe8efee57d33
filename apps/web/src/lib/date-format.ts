import i18n from 'i18next';

import { localeOf } from './i18n-resources';
import type { AppLocale } from './i18n-resources';

const OPTIONS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

const formats = new Map<AppLocale, Intl.DateTimeFormat>();

function formatFor(locale: AppLocale): Intl.DateTimeFormat {
  let format = formats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, OPTIONS);
    formats.set(locale, format);
  }
  return format;
}

/**
 * An ISO time as a date and time with a short month, in the page's language (en-IN or hi-IN); the raw text
 * if it does not parse.
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatFor(localeOf(i18n.language)).format(date);
}
