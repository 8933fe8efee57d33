import type { Page } from '@playwright/test';

/**
 * English typed straight into a component, on a page shown in Hindi (issue 27): any run of Latin-letter words
 * the person can see or hear (text, and the names and hints screen readers read) that is neither data nor a
 * word Hindi keeps as it is.
 *
 * Data is left out two ways: what the page marks as data (`translate="no"`, the HTML attribute that tells
 * translators and translation tools to leave a name, an address or an id as it is, set where the app renders
 * what people typed; `<code>`, `<kbd>` and `<samp>` for ids), and what the test made itself, by value
 * (its usernames, emails, store names).
 */

/**
 * Latin words a Hindi page shows on purpose, each for a reason:
 * - the product's names: Hasta, and its devices PalmPOS and PalmKiosk;
 * - abbreviations Indians read in Latin letters in Hindi apps too (UPI, OTP, QR, SMS, PIN, INR, POS, SIM,
 *   IFSC, API, CSV, JSON, PNG, ID, LPG, DTH), and other brands named on the site (Android, WhatsApp, Telegram,
 *   PostgreSQL, Polygon, Celo);
 * - "English", the language switch's other language, named in its own script so an English reader finds it,
 *   and "Language" beside "भाषा" on the switch, for the same reader;
 * - "am" and "pm": what `Intl` in hi-IN writes after a time (CLDR's Hindi day periods).
 * Names of more than one word are in LATIN_ALLOWED_TERMS.
 */
export const LATIN_ALLOWED = new Set([
  'Hasta',
  'PalmPOS',
  'PalmKiosk',
  'UPI',
  'OTP',
  'QR',
  'SMS',
  'PIN',
  'INR',
  'POS',
  'SIM',
  'IFSC',
  'API',
  'CSV',
  'JSON',
  'PNG',
  'ID',
  'Android',
  'WhatsApp',
  'Telegram',
  'PostgreSQL',
  'LPG',
  'DTH',
  'Polygon',
  'Celo',
  'English',
  'Language',
  'am',
  'pm',
]);

/** The published name of the template protection the technology page describes. */
export const LATIN_ALLOWED_TERMS = ['Index-of-Max'];

/** What a page shows a person: its text nodes and the accessible names and hints of its elements. */
export async function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const DATA = '[translate="no"], code, kbd, samp, script, style, noscript, template';
    const texts: string[] = [document.title];
    const visible = (element: Element) =>
      element.checkVisibility({ visibilityProperty: true }) ||
      // A screen reader's text (`sr-only`) is visible to checkVisibility; a closed <option> list is not.
      element.closest('select') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (parent === null || text === '' || parent.closest(DATA) !== null || !visible(parent)) continue;
      texts.push(text);
    }
    const ATTRIBUTES = ['aria-label', 'aria-description', 'placeholder', 'title', 'alt'];
    for (const element of document.body.querySelectorAll('*')) {
      if (element.closest(DATA) !== null || !visible(element)) continue;
      for (const attribute of ATTRIBUTES) {
        const value = element.getAttribute(attribute)?.trim();
        if (value) texts.push(`${value} [${attribute}]`);
      }
      if (element instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(element.type)) {
        texts.push(element.value);
      }
    }
    return texts;
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word of Latin letters, not part of a longer token with digits (ids, amounts) or other letters. */
const LATIN_WORD = /(?<![\p{L}\p{N}_])[A-Za-z]+(?:['’][A-Za-z]+)*(?![\p{L}\p{N}_])/gu;
/** Emails (also masked ones: "a•••@g•••.com"), web addresses and UUIDs: data, whatever the language. */
const DATA_PATTERNS = [
  /[^\s@()<>,;:]+@[^\s@()<>,;:]+/g,
  /\bhttps?:\/\/\S+/g,
  /\b[\w-]+\.(?:com|in|org|net|test|io)\b(?:\/\S*)?/g,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
];

/**
 * The English in `texts`: each run of Latin words (allowed words and data break a run) with the text it is
 * in. `data` is what the test made, taken out by value first.
 */
export function englishRuns(texts: readonly string[], data: readonly string[]): string[] {
  const byValue = data
    .filter((value) => value.trim() !== '')
    .sort((a, b) => b.length - a.length)
    .map((value) => new RegExp(escape(value), 'gi'));
  const found: string[] = [];
  for (const text of texts) {
    let rest = text.replace(/ \[(aria-label|aria-description|placeholder|title|alt)\]$/, '');
    for (const pattern of [...byValue, ...DATA_PATTERNS]) rest = rest.replace(pattern, ' \u0000 ');
    for (const term of LATIN_ALLOWED_TERMS) rest = rest.replaceAll(term, ' \u0000 ');
    // Words in order, with what lies between them: a run is Latin words separated by spaces and punctuation.
    const runs: string[][] = [];
    let current: string[] = [];
    let last = 0;
    for (const match of rest.matchAll(LATIN_WORD)) {
      const between = rest.slice(last, match.index);
      const joins = /^[\s.,:;!?'"“”‘’()/&+-]*$/.test(between) && !between.includes('\u0000');
      if (!joins && current.length > 0) {
        runs.push(current);
        current = [];
      }
      if (LATIN_ALLOWED.has(match[0])) {
        if (current.length > 0) runs.push(current);
        current = [];
      } else {
        current.push(match[0]);
      }
      last = match.index + match[0].length;
    }
    if (current.length > 0) runs.push(current);
    for (const run of runs) found.push(`"${run.join(' ')}" in "${text.slice(0, 100)}"`);
  }
  return [...new Set(found)];
}
