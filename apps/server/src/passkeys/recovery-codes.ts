import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@hasta/contracts/passkeys';
import { hashToken } from '../auth/secrets';

/** Letters and digits that cannot be mistaken for one another when read off paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** 12 symbols of 31: about 59 bits each, far beyond guessing within the sign-in attempt limits. */
const CODE_LENGTH = 12;

/** A set of new recovery codes, `xxxx-xxxx-xxxx`, from the CSPRNG. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(CODE_LENGTH * 2);
    let code = '';
    // Rejection sampling keeps every symbol equally likely.
    for (let i = 0; i < bytes.length && code.length < CODE_LENGTH; i += 1) {
      const byte = bytes[i]!;
      if (byte < 248) code += ALPHABET[byte % ALPHABET.length];
    }
    if (code.length < CODE_LENGTH) return newRecoveryCodes(1)[0]!;
    return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;
  });
}

/** A code as typed (any case, spaces or dashes) in its canonical form. */
export function canonicalRecoveryCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]/g, '');
}

/** Stored as the SHA-256 of the canonical form: the codes are long and random, a leak gives none of them. */
export function hashRecoveryCode(typed: string): string {
  return hashToken(`recovery\0${canonicalRecoveryCode(typed)}`);
}
