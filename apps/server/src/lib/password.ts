import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import dumbPasswords from 'dumb-passwords';

/** @node-rs/argon2's const enum Algorithm.Argon2id, which isolated modules cannot read. */
const ARGON2ID = 2;

/** argon2id with OWASP's first recommended setting: 19 MiB, two passes, one lane. */
const STRONG_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Only for the servers the browser tests start (PASSWORD_HASHING=fast, refused by env.ts unless NODE_ENV=test):
 * argon2id at 1 MiB and one pass, about twenty times cheaper, so logins do not queue behind hashing on a busy
 * machine. A hash carries its own parameters, so either kind verifies whichever setting is on.
 */
const FAST_TEST_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 1_024,
  timeCost: 1,
  parallelism: 1,
} as const;

export type PasswordHashing = 'strong' | 'fast';

let hashOptions: typeof STRONG_OPTIONS | typeof FAST_TEST_OPTIONS = STRONG_OPTIONS;

/** Chooses the cost of new hashes for this process (main.ts, from the validated env). Strong by default. */
export function setPasswordHashing(setting: PasswordHashing): void {
  hashOptions = setting === 'fast' ? FAST_TEST_OPTIONS : STRONG_OPTIONS;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, hashOptions);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password, hashOptions);
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
