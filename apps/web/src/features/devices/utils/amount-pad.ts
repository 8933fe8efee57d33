import { parseRupees } from '@hasta/ledger/money';

/** A key of the terminal's numeric pad. */
export type PadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '.' | 'back' | 'clear';

/** The largest amount the pad takes: 7 rupee digits (₹99,99,999.99), far above any palm limit. */
export const PAD_MAX_RUPEE_DIGITS = 7;

/**
 * The amount text after a key press: digits with at most one point and two decimals, no leading zeros, at
 * most PAD_MAX_RUPEE_DIGITS before the point. A key that would break these is ignored.
 */
export function pressPadKey(text: string, key: PadKey): string {
  if (key === 'clear') return '';
  if (key === 'back') return text.slice(0, -1);
  const [rupees = '', decimals] = text.split('.');
  if (key === '.') {
    if (decimals !== undefined) return text;
    return rupees === '' ? '0.' : `${text}.`;
  }
  if (decimals !== undefined) return decimals.length >= 2 ? text : `${text}${key}`;
  if (rupees === '0') return key;
  if (rupees.length >= PAD_MAX_RUPEE_DIGITS) return text;
  return `${text}${key}`;
}

/** The pad's text as an amount to take: its paise and the text the request carries, or null if not above 0. */
export function padAmount(text: string): { paise: bigint; text: string } | null {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  if (trimmed === '') return null;
  const paise = parseRupees(trimmed);
  return paise === null || paise <= 0n ? null : { paise, text: trimmed };
}
