import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const DATA_KEY_BYTES = 32;

/** A 32-byte key for one purpose, derived from the server's secret (HKDF-SHA-256). */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'hasta', purpose, DATA_KEY_BYTES));
}

/**
 * AES-256-GCM: nonce ‖ ciphertext ‖ tag. `context` is bound as associated data. The nonce is fresh random
 * bytes, drawn here or given by a caller that drew many at once (never reuse one under the same key).
 */
export function seal(
  key: Uint8Array,
  plaintext: Uint8Array,
  context: string,
  nonce: Uint8Array = randomBytes(NONCE_BYTES),
): Buffer {
  if (nonce.length !== NONCE_BYTES) throw new RangeError(`a nonce has ${NONCE_BYTES} bytes`);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

/** The plaintext, or null when the key is wrong or the sealed bytes were altered. */
export function open(key: Uint8Array, sealed: Uint8Array, context: string): Buffer | null {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) return null;
  const bytes = Buffer.from(sealed);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return null;
  }
}
