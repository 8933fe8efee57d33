import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import dumbPasswords from 'dumb-passwords';

/** @node-rs/argon2's const enum Algorithm.Argon2id, which isolated modules cannot read. */
const ARGON2ID = 2;

/** argon2id with OWASP's first recommended setting: 19 MiB, two passes, one lane. */
const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password, ARGON2_OPTIONS);
}

/** A random password for generated accounts: 18 bytes, base64url, 24 characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** One of the 10,000 most common passwords (the SecLists list shipped by dumb-passwords). */
export function isCommonPassword(password: string): boolean {
  return dumbPasswords.check(password);
}

/** A valid hash of nothing anyone knows: verified against when the account is missing, to even out timing. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(generatePassword());
  return decoyHash;
}
