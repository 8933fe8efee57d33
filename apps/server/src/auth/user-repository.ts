import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { UserRow } from './sessions';
import { channelOf } from './users';

/** The account of an email or phone, if there is one. */
export async function findUserByIdentifier(
  db: Kysely<Schema>,
  identifier: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(channelOf(identifier) === 'sms' ? 'phone' : 'email', '=', identifier)
    .executeTakeFirst();
}

/** A new account; a taken username, email or phone fails with the database's unique violation. */
export async function insertUser(
  db: Kysely<Schema>,
  user: { username: string; email: string | null; phone: string | null; passwordHash: string },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      username: user.username,
      email: user.email,
      phone: user.phone,
      password_hash: user.passwordHash,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces a user's password hash; undefined when there is no such user. */
export async function updatePassword(
  db: Kysely<Schema>,
  userId: string,
  change: { passwordHash: string; mustChange: boolean; now: Date },
): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({
      password_hash: change.passwordHash,
      must_change_password: change.mustChange,
      updated_at: change.now,
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}
