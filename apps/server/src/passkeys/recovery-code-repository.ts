import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** Replaces a user's recovery codes with these hashes (earlier ones, used or not, stop working). */
export async function replaceRecoveryCodes(
  db: Kysely<Schema>,
  input: { userId: string; codeHashes: string[]; now: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', input.userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        input.codeHashes.map((code_hash) => ({ user_id: input.userId, code_hash, created_at: input.now })),
      )
      .execute();
  });
}

/** Uses up the user's unused code with this hash: single use even when two requests race. */
export async function spendRecoveryCode(
  db: Kysely<Schema>,
  input: { userId: string; codeHash: string; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('recovery_codes')
    .set({ used_at: input.now })
    .where('user_id', '=', input.userId)
    .where('code_hash', '=', input.codeHash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function unusedRecoveryCodes(db: Kysely<Schema>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
