import { PHONE_DEFAULT_PREFIX, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '@hasta/contracts/constants';
import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';

/** How a one-time code reaches the user, and the identifier it is keyed by. */
export type Channel = 'email' | 'phone';

export interface Contact {
  channel: Channel;
  /** Normalized: a lower-case email or an E.164 phone number. */
  value: string;
}

/** Spec §5.6: an email must look like name@domain.tld. */
export function parseEmail(input: string): string | null {
  return normalizeEmail(input);
}

/** Spec §5.6: a phone number with at least 7 digits (and at most 15), as E.164. */
export function parsePhone(input: string): string | null {
  return normalizePhone(input);
}

const REGISTER_PHONE = new RegExp(`^\\+?(\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}})$`);

/**
 * Spec §5.7: one field taking an email or a phone number (an optional + then 7 to 15 digits; spaces and
 * dashes ignored). A bare 10-digit number is an Indian mobile (+91); other bare numbers get a +.
 */
export function parseRegisterContact(input: string): Contact | null {
  const text = input.trim();
  if (text.includes('@')) {
    const email = normalizeEmail(text);
    return email === null ? null : { channel: 'email', value: email };
  }
  const compact = text.replace(/[\s\-().]/g, '');
  const match = REGISTER_PHONE.exec(compact);
  if (match?.[1] === undefined) return null;
  return { channel: 'phone', value: normalizePhone(compact) ?? `+${match[1]}` };
}

/**
 * The login phone field keeps its '+91 ' prefix (spec §2.8): an edit that removed or broke it gets it back,
 * with whatever was typed after it kept.
 */
export function keepPhonePrefix(next: string, prefix: string = PHONE_DEFAULT_PREFIX): string {
  if (next.startsWith(prefix)) return next;
  // Typed in front of the prefix: what was typed goes after it.
  const at = next.indexOf(prefix);
  if (at > 0) return `${prefix}${next.slice(0, at)}${next.slice(at + prefix.length)}`;
  const bare = prefix.trim();
  let rest = next;
  // Strip what is left of the prefix (its characters in order, some possibly deleted).
  for (const char of `${bare} `) {
    if (rest.startsWith(char)) rest = rest.slice(1);
  }
  return `${prefix}${rest.trimStart()}`;
}
