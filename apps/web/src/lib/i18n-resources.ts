import { common as enCommon } from '../locales/en/common';
import type { contact } from '../locales/en/contact';
import type { demo } from '../locales/en/demo';
import type { features } from '../locales/en/features';
import type { home } from '../locales/en/home';
import type { legal } from '../locales/en/legal';
import type { marketing } from '../locales/en/marketing';
import { messages as enMessages } from '../locales/en/messages';
import { meta as enMeta } from '../locales/en/meta';
import type { notMe } from '../locales/en/not-me';
import type { app } from '../locales/en/app';
import type { admin } from '../locales/en/admin';
import type { merchant } from '../locales/en/merchant';
import type { consent } from '../locales/en/consent';
import type { receipts } from '../locales/en/receipts';
import type { auth } from '../locales/en/auth';
import type { wallet } from '../locales/en/wallet';
import type { palmScan } from '../locales/en/palm-scan';
import type { rewards } from '../locales/en/rewards';
import type { technology } from '../locales/en/technology';
import type { waitlist } from '../locales/en/waitlist';
import type { devices } from '../locales/en/devices';
import type { kiosk } from '../locales/en/kiosk';

/**
 * Every text of the site, by namespace. English is the reference: each Hindi module is typed as its English
 * twin, so a missing or extra key does not compile; `i18n-resources.test.ts` checks the placeholders.
 */
export interface Resources {
  common: typeof enCommon;
  marketing: typeof marketing;
  home: typeof home;
  technology: typeof technology;
  features: typeof features;
  demo: typeof demo;
  contact: typeof contact;
  waitlist: typeof waitlist;
  legal: typeof legal;
  meta: typeof enMeta;
  messages: typeof enMessages;
  notMe: typeof notMe;
  palmScan: typeof palmScan;
  rewards: typeof rewards;
  wallet: typeof wallet;
  auth: typeof auth;
  receipts: typeof receipts;
  consent: typeof consent;
  merchant: typeof merchant;
  app: typeof app;
  admin: typeof admin;
  devices: typeof devices;
  kiosk: typeof kiosk;
}

export type Namespace = keyof Resources;
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;

/**
 * The chrome (navigation bar, footer, dialogs), every page's title and description, and the message
 * catalogue the server answers from: needed on every page.
 */
export const SHELL_NAMESPACES = ['common', 'meta', 'messages'] as const satisfies readonly Namespace[];

/** English's shell texts ship with the app, so the first render needs no request in the default language. */
export const englishShellResources = { common: enCommon, meta: enMeta, messages: enMessages } satisfies Pick<
  Resources,
  (typeof SHELL_NAMESPACES)[number]
>;

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

type NamespaceLoaders = { [N in Namespace]: () => Promise<Resources[N]> };

/**
 * Where each namespace's texts come from. Beyond English's shell, each is its own small chunk, loaded with the
 * pages that use it (see the router) and in the language chosen, so a page carries only its own texts.
 */
const LOADERS: Record<Language, NamespaceLoaders> = {
  en: {
    common: () => Promise.resolve(englishShellResources.common),
    meta: () => Promise.resolve(englishShellResources.meta),
    messages: () => Promise.resolve(englishShellResources.messages),
    marketing: () => import('../locales/en/marketing').then((module) => module.marketing),
    home: () => import('../locales/en/home').then((module) => module.home),
    technology: () => import('../locales/en/technology').then((module) => module.technology),
    features: () => import('../locales/en/features').then((module) => module.features),
    demo: () => import('../locales/en/demo').then((module) => module.demo),
    contact: () => import('../locales/en/contact').then((module) => module.contact),
    waitlist: () => import('../locales/en/waitlist').then((module) => module.waitlist),
    legal: () => import('../locales/en/legal').then((module) => module.legal),
    notMe: () => import('../locales/en/not-me').then((module) => module.notMe),
    palmScan: () => import('../locales/en/palm-scan').then((module) => module.palmScan),
    rewards: () => import('../locales/en/rewards').then((module) => module.rewards),
    wallet: () => import('../locales/en/wallet').then((module) => module.wallet),
    auth: () => import('../locales/en/auth').then((module) => module.auth),
    receipts: () => import('../locales/en/receipts').then((module) => module.receipts),
    consent: () => import('../locales/en/consent').then((module) => module.consent),
    merchant: () => import('../locales/en/merchant').then((module) => module.merchant),
    admin: () => import('../locales/en/admin').then((module) => module.admin),
    app: () => import('../locales/en/app').then((module) => module.app),
    devices: () => import('../locales/en/devices').then((module) => module.devices),
    kiosk: () => import('../locales/en/kiosk').then((module) => module.kiosk),
  },
  hi: {
    common: () => import('../locales/hi/common').then((module) => module.common),
    meta: () => import('../locales/hi/meta').then((module) => module.meta),
    messages: () => import('../locales/hi/messages').then((module) => module.messages),
    marketing: () => import('../locales/hi/marketing').then((module) => module.marketing),
    home: () => import('../locales/hi/home').then((module) => module.home),
    technology: () => import('../locales/hi/technology').then((module) => module.technology),
    features: () => import('../locales/hi/features').then((module) => module.features),
    demo: () => import('../locales/hi/demo').then((module) => module.demo),
    contact: () => import('../locales/hi/contact').then((module) => module.contact),
    waitlist: () => import('../locales/hi/waitlist').then((module) => module.waitlist),
    legal: () => import('../locales/hi/legal').then((module) => module.legal),
    notMe: () => import('../locales/hi/not-me').then((module) => module.notMe),
    palmScan: () => import('../locales/hi/palm-scan').then((module) => module.palmScan),
    rewards: () => import('../locales/hi/rewards').then((module) => module.rewards),
    wallet: () => import('../locales/hi/wallet').then((module) => module.wallet),
    auth: () => import('../locales/hi/auth').then((module) => module.auth),
    receipts: () => import('../locales/hi/receipts').then((module) => module.receipts),
    consent: () => import('../locales/hi/consent').then((module) => module.consent),
    merchant: () => import('../locales/hi/merchant').then((module) => module.merchant),
    admin: () => import('../locales/hi/admin').then((module) => module.admin),
    app: () => import('../locales/hi/app').then((module) => module.app),
    devices: () => import('../locales/hi/devices').then((module) => module.devices),
    kiosk: () => import('../locales/hi/kiosk').then((module) => module.kiosk),
  },
};

export const NAMESPACES = Object.keys(LOADERS.en) as Namespace[];

/** One namespace's texts in one language. */
export function loadNamespace<N extends Namespace>(language: Language, namespace: N): Promise<Resources[N]> {
  return LOADERS[language][namespace]();
}

/** Every text of a language (for the tests that compare languages). */
export async function loadAllResources(language: Language): Promise<Resources> {
  const entries = await Promise.all(
    NAMESPACES.map(async (namespace) => [namespace, await loadNamespace(language, namespace)] as const),
  );
  return Object.fromEntries(entries) as unknown as Resources;
}
