import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants';

/** Spec §5.6: an email must look like name@domain.tld. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  return email.length <= 254 && EMAIL_PATTERN.test(email) ? email : null;
}

/**
 * A phone number as E.164 (+ and 7 to 15 digits). Spaces, dashes, dots and brackets are ignored; a bare
 * 10-digit Indian mobile number (or one written with a leading 0) gets the default +91.
 */
export function normalizePhone(input: string): string | null {
  const compact = input.trim().replace(/[\s\-().]/g, '');
  if (/^\d{10}$/.test(compact)) return `+91${compact}`;
  if (/^0\d{10}$/.test(compact)) return `+91${compact.slice(1)}`;
  const match = /^\+(\d+)$/.exec(compact);
  if (!match?.[1]) return null;
  const digits = match[1].length;
  return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS ? compact : null;
}
