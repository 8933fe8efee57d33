import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { generatePassword, hashPassword } from '../lib/password';

export const GENERATED_ADMIN_EMAIL = 'admin@hasta.local';

export type AdminBootstrap =
  | { kind: 'configured'; email: string; created: boolean }
  | { kind: 'generated'; email: string; password: string }
  | { kind: 'existing' };

/**
 * Makes sure an admin exists. With ADMIN_EMAIL/ADMIN_PASSWORD the account is created when missing (an
 * existing account of that email is made admin and keeps its password, so a password changed in the app is
 * not undone by a restart). Without them, and with no admin at all, one is generated and its password is
 * returned to be printed once.
 */
export async function ensureAdmin(
  db: Kysely<Schema>,
  configured: { email: string; password: string } | undefined,
): Promise<AdminBootstrap> {
  if (configured) {
    const email = configured.email.toLowerCase();
    const existing = await db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('email', '=', email)
      .executeTakeFirst();
    if (existing) {
      if (existing.role !== 'admin') {
        await db
          .updateTable('users')
          .set({ role: 'admin', updated_at: new Date() })
          .where('id', '=', existing.id)
          .execute();
      }
      return { kind: 'configured', email, created: false };
    }
    await db
      .insertInto('users')
      .values({
        email,
        username: 'Admin',
        role: 'admin',
        password_hash: await hashPassword(configured.password),
      })
      .execute();
    return { kind: 'configured', email, created: true };
  }

  const anyAdmin = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  if (anyAdmin) return { kind: 'existing' };
  const password = generatePassword();
  await db
    .insertInto('users')
    .values({
      email: GENERATED_ADMIN_EMAIL,
      username: 'Admin',
      role: 'admin',
      password_hash: await hashPassword(password),
    })
    .execute();
  return { kind: 'generated', email: GENERATED_ADMIN_EMAIL, password };
}
