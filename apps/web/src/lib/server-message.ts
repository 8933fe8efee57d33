import { amountMinimumMessage, balanceLimitMessage, messages } from '@hasta/contracts/messages';
import type { MessageKey } from '@hasta/contracts/messages';
import i18n from 'i18next';

import type { MessagePatternKey } from '../locales/en/messages';

/** The catalogue's English texts back to their keys: a server answer is one of them, verbatim. */
const KEY_OF_TEXT = new Map<string, MessageKey>(
  (Object.entries(messages) as Array<[MessageKey, string]>).map(([key, text]) => [text, key]),
);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A catalogue text with a value inside, as a pattern over its English (the value captured). */
function patternOf(build: (value: string) => string): RegExp {
  const [before = '', after = ''] = build('\u0000').split('\u0000');
  return new RegExp(`^${escape(before)}(.+)${escape(after)}$`);
}

const PATTERNS: ReadonlyArray<{ pattern: RegExp; key: MessagePatternKey }> = [
  { pattern: patternOf(balanceLimitMessage), key: 'balanceLimit' },
  { pattern: patternOf(amountMinimumMessage), key: 'amountMinimum' },
];

/**
 * A message of the catalogue (a server answer, or a client text taken from `@hasta/contracts/messages`) in
 * the page's language. English stays verbatim (the spec's texts are a contract); a text the catalogue does not
 * know (a validation detail, a third party's words) is shown as it came.
 */
export function translateMessage(text: string): string {
  if (i18n.language !== 'hi') return text;
  const key = KEY_OF_TEXT.get(text);
  if (key !== undefined) return i18n.t(`messages:${key}`);
  for (const { pattern, key } of PATTERNS) {
    const value = pattern.exec(text)?.[1];
    if (value !== undefined) return i18n.t(`messages:${key}`, { value });
  }
  return text;
}
