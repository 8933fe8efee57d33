import { comingSoonTitle, messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import {
  LANGUAGES,
  NAMESPACES,
  SHELL_NAMESPACES,
  englishShellResources,
  isLanguage,
  loadAllResources,
  loadNamespace,
  localeOf,
} from './i18n-resources';

const resources = { en: await loadAllResources('en'), hi: await loadAllResources('hi') };

type Tree = { [key: string]: string | Tree };

/** Every leaf as [dotted key, text]. */
function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string): string[] =>
  [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1] ?? '').sort();

describe('translations', () => {
  const english = new Map(leaves(resources.en as unknown as Tree));
  const hindi = new Map(leaves(resources.hi as unknown as Tree));

  it('Hindi has exactly the English keys, none empty', () => {
    expect([...hindi.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of hindi) expect(text.trim(), key).not.toBe('');
  });

  it('each Hindi text uses the same placeholders as its English twin', () => {
    for (const [key, text] of english) {
      expect(placeholders(hindi.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('the Hindi page copy is actually translated', () => {
    // Technical names (PalmPOS, WhatsApp, Android 10+...) may stay as they are, but whole pages may not.
    const same = [...english].filter(
      ([key, text]) => hindi.get(key) === text && /[a-z]{4,} [a-z]{4,}/.test(text),
    );
    expect(same.map(([key]) => key)).toEqual([]);
  });

  it('English keeps the spec texts verbatim', () => {
    expect(resources.en.common.comingSoon.body).toBe(messages.comingSoonBody);
    expect(resources.en.common.comingSoon.title.replace('{{feature}}', 'Stars Programme')).toBe(
      comingSoonTitle('Stars Programme'),
    );
    expect(resources.en.waitlist.title).toBe('Join the Hasta Waitlist');
  });
});

describe('languages', () => {
  it('knows English and Hindi and their Intl locales', () => {
    expect(LANGUAGES.map((language) => language.code)).toEqual(['en', 'hi']);
    expect(isLanguage('hi')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
    expect(isLanguage(null)).toBe(false);
    expect(localeOf('hi')).toBe('hi-IN');
    expect(localeOf('en')).toBe('en-IN');
    expect(localeOf('xx')).toBe('en-IN');
  });

  it("loads every namespace in each language; English's shell is the bundled one", async () => {
    expect(NAMESPACES).toEqual(expect.arrayContaining([...SHELL_NAMESPACES, 'home', 'marketing', 'legal']));
    for (const namespace of SHELL_NAMESPACES) {
      expect(await loadNamespace('en', namespace)).toBe(englishShellResources[namespace]);
    }
    expect(Object.keys(resources.hi).sort()).toEqual([...NAMESPACES].sort());
    expect((await loadNamespace('hi', 'home')).hero.title).toBe('अपनी हथेली से भुगतान करें');
  });
});
