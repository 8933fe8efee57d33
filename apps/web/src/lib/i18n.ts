import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import { DEFAULT_LANGUAGE, DEFAULT_NAMESPACE, NAMESPACES, isLanguage, resources } from './i18n-resources';
import type { Language } from './i18n-resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NAMESPACE;
    resources: (typeof resources)['en'];
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
}

i18n.on('languageChanged', applyToDocument);

// Resources are bundled, so initialisation is synchronous: the first render is already translated.
void i18n.use(initReactI18next).init({
  resources,
  lng: readStoredLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: Object.keys(resources),
  ns: NAMESPACES,
  defaultNS: DEFAULT_NAMESPACE,
  initAsync: false,
  returnNull: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
});
applyToDocument(i18n.language);

// Another tab switched language: follow it.
window.addEventListener('storage', (event) => {
  if (event.key === LANGUAGE_STORAGE_KEY && isLanguage(event.newValue))
    void i18n.changeLanguage(event.newValue);
});

/** Switches the site's language and remembers it on this device. */
export function setLanguage(language: Language): void {
  storeLanguage(language);
  void i18n.changeLanguage(language);
}

/** The current language, as one of ours. */
export function currentLanguage(language: string = i18n.language): Language {
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}
