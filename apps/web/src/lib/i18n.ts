import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import { loadDevanagariFont } from './devanagari-font';
import {
  DEFAULT_LANGUAGE,
  DEFAULT_NAMESPACE,
  LANGUAGES,
  SHELL_NAMESPACES,
  englishShellResources,
  isLanguage,
  loadNamespace,
} from './i18n-resources';
import type { Language, Namespace, Resources } from './i18n-resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NAMESPACE;
    resources: Resources;
  }
}

/** The device remembers the visitor's choice under this localStorage key. */
export const LANGUAGE_STORAGE_KEY = 'language';

function readStoredLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    // Storage can be blocked (privacy settings); the site still works, in the default language.
    return DEFAULT_LANGUAGE;
  }
}

function storeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered on this device; the choice still applies until the page is closed.
  }
}

/** `<html lang>` follows the language, so screen readers pronounce and browsers hyphenate correctly. */
function applyToDocument(language: string): void {
  document.documentElement.lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  if (language === 'hi') void loadDevanagariFont();
}

declare global {
  interface Window {
    /** Every text asked for that no loaded catalogue has, as `namespace:key` (read by the browser tests). */
    __missingTranslations?: string[];
  }
}

/**
 * A text the catalogue lacks (a key typo, a namespace the page forgot to load): reported on the console and
 * kept on `window.__missingTranslations`, so the Hindi walk of the browser tests fails on it.
 */
function reportMissing(languages: readonly string[], namespace: string, key: string): void {
  const entry = `${namespace}:${key}`;
  (window.__missingTranslations ??= []).push(entry);
  console.error(`Missing translation ${entry} (${languages.join(', ')})`);
}

i18n.on('languageChanged', applyToDocument);

// English's shell texts are bundled, so initialisation is synchronous; the rest loads with the pages.
void i18n.use(initReactI18next).init({
  resources: { [DEFAULT_LANGUAGE]: englishShellResources },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: LANGUAGES.map((language) => language.code),
  ns: [...SHELL_NAMESPACES],
  defaultNS: DEFAULT_NAMESPACE,
  initAsync: false,
  returnNull: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  saveMissing: true,
  missingKeyHandler: reportMissing,
});
applyToDocument(i18n.language);

/** The namespaces of the pages shown so far: a language switch loads them all in the new language. */
const wantedNamespaces = new Set<Namespace>(SHELL_NAMESPACES);

/**
 * The latest language asked for (a slower, earlier request must not win). From the start it is the one
 * remembered on this device, so the first page's texts load in it while `startI18n` loads the shell's.
 */
let requestedLanguage: Language = readStoredLanguage();

async function ensureLoaded(language: Language, namespaces: Iterable<Namespace>): Promise<void> {
  const missing = [...namespaces].filter((namespace) => !i18n.hasResourceBundle(language, namespace));
  await Promise.all(
    missing.map(async (namespace) => {
      i18n.addResourceBundle(language, namespace, await loadNamespace(language, namespace));
    }),
  );
}

async function switchTo(language: Language): Promise<void> {
  requestedLanguage = language;
  try {
    await ensureLoaded(language, wantedNamespaces);
  } catch {
    // The texts could not load (offline after an update): the page stays in the language it is in.
    if (requestedLanguage === language) requestedLanguage = currentLanguage();
    return;
  }
  if (requestedLanguage === language) await i18n.changeLanguage(language);
}

/**
 * Loads the texts a page needs before it renders (see the router): in the language asked for and in the one
 * on screen, which differ only while a switch is under way (or after one failed).
 */
export async function loadPageNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  for (const namespace of namespaces) wantedNamespaces.add(namespace);
  const languages = new Set<Language>([requestedLanguage, currentLanguage()]);
  await Promise.all([...languages].map((language) => ensureLoaded(language, namespaces)));
}

/** Before the first render: switches to the language remembered on this device, its texts loaded. */
export function startI18n(): Promise<void> {
  return requestedLanguage === DEFAULT_LANGUAGE ? Promise.resolve() : switchTo(requestedLanguage);
}

// Another tab switched language: follow it.
window.addEventListener('storage', (event) => {
  if (event.key === LANGUAGE_STORAGE_KEY && isLanguage(event.newValue)) void switchTo(event.newValue);
});

/** Switches the site's language and remembers it on this device. */
export function setLanguage(language: Language): void {
  storeLanguage(language);
  void switchTo(language);
}

/** The current language, as one of ours. */
export function currentLanguage(language: string = i18n.language): Language {
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}
