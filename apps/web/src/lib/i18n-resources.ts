import { common as enCommon } from '../locales/en/common';
import { contact as enContact } from '../locales/en/contact';
import { demo as enDemo } from '../locales/en/demo';
import { features as enFeatures } from '../locales/en/features';
import { home as enHome } from '../locales/en/home';
import { legal as enLegal } from '../locales/en/legal';
import { marketing as enMarketing } from '../locales/en/marketing';
import { technology as enTechnology } from '../locales/en/technology';
import { waitlist as enWaitlist } from '../locales/en/waitlist';
import { common as hiCommon } from '../locales/hi/common';
import { contact as hiContact } from '../locales/hi/contact';
import { demo as hiDemo } from '../locales/hi/demo';
import { features as hiFeatures } from '../locales/hi/features';
import { home as hiHome } from '../locales/hi/home';
import { legal as hiLegal } from '../locales/hi/legal';
import { marketing as hiMarketing } from '../locales/hi/marketing';
import { technology as hiTechnology } from '../locales/hi/technology';
import { waitlist as hiWaitlist } from '../locales/hi/waitlist';

/**
 * Every translation, bundled (no HTTP backend). English is the reference: each Hindi module is typed as its
 * English twin, so a missing or extra key does not compile; `i18n-resources.test.ts` checks the placeholders.
 */
const en = {
  common: enCommon,
  marketing: enMarketing,
  home: enHome,
  technology: enTechnology,
  features: enFeatures,
  demo: enDemo,
  contact: enContact,
  waitlist: enWaitlist,
  legal: enLegal,
};

const hi: typeof en = {
  common: hiCommon,
  marketing: hiMarketing,
  home: hiHome,
  technology: hiTechnology,
  features: hiFeatures,
  demo: hiDemo,
  contact: hiContact,
  waitlist: hiWaitlist,
  legal: hiLegal,
};

export const resources = { en, hi };

export type Namespace = keyof typeof en;
export const NAMESPACES = Object.keys(en) as Namespace[];
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;

/** The languages of the site, each named in its own script (a visitor who cannot read one finds the other). */
export const LANGUAGES = [
  { code: 'en', name: 'English', locale: 'en-IN' },
  { code: 'hi', name: 'हिन्दी', locale: 'hi-IN' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];
export type AppLocale = (typeof LANGUAGES)[number]['locale'];

export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((language) => language.code === value);
}

/** The `Intl` locale of a language code; anything unknown is formatted as English (India). */
export function localeOf(language: string): AppLocale {
  return LANGUAGES.find((entry) => entry.code === language)?.locale ?? 'en-IN';
}
