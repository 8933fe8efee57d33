import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { hashPassword, isCommonPassword } from '../lib/password';
import { revokeUserSessions, type UserRow } from './sessions';
import { updatePassword } from './user-repository';

/** Refuses one of the 10,000 most common passwords (spec: choose a stronger password). */
export function assertPasswordAllowed(password: string): void {
  if (isCommonPassword(password)) throw AppError.of('BAD_REQUEST', 'commonPassword');
}

/** Sets a password (argon2id), ends every session of the user, and returns the updated user. */
export async function setPassword(
  db: Kysely<Schema>,
  userId: string,
  password: string,
  mustChange: boolean,
): Promise<UserRow | undefined> {
  const updated = await updatePassword(db, userId, {
    passwordHash: await hashPassword(password),
    mustChange,
    now: new Date(),
  });
  if (updated) await revokeUserSessions(db, userId);
  return updated;
}
