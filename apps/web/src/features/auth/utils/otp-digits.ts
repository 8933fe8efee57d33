import { OTP_LENGTH } from '@hasta/contracts/constants';

/** Empty code: one blank per box. */
export const EMPTY_CODE: readonly string[] = Array.from({ length: OTP_LENGTH }, () => '');

export function codeOf(digits: readonly string[]): string {
  return digits.join('');
}

/**
 * Puts the digits of `incoming` into the boxes from `start` on (non-digits dropped) and says which box to
 * focus next. A whole code (pasted or autofilled) always fills the boxes from the first.
 */
export function fillDigits(
  digits: readonly string[],
  start: number,
  incoming: string,
): { digits: string[]; focus: number } {
  const only = incoming.replace(/\D/g, '');
  const from = only.length >= OTP_LENGTH ? 0 : start;
  const next = [...digits];
  const chars = only.slice(0, OTP_LENGTH - from);
  for (let offset = 0; offset < chars.length; offset += 1) next[from + offset] = chars.charAt(offset);
  const focus = chars.length === 0 ? start : Math.min(from + chars.length, OTP_LENGTH - 1);
  return { digits: next, focus };
}
