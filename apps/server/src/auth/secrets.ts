import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH } from '@hasta/contracts/constants';

/** A secret for a cookie, a bearer token or a link: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored as their SHA-256: a database leak gives no usable session or link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A 6-digit code from the CSPRNG, uniformly distributed. */
export function newOtpCode(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/**
 * A keyed hash of a code bound to its purpose and recipient: a code cannot be replayed for another purpose
 * or address, and a stolen table cannot be brute-forced without the server secret.
 */
export function hashOtp(secret: string, purpose: string, identifier: string, code: string): string {
  return createHmac('sha256', secret).update(`otp\0${purpose}\0${identifier}\0${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
