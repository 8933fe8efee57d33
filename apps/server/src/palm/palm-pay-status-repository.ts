import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** When palm pay was paused for the user, or undefined when it is not (palm_pay_freezes, migration 021). */
export async function palmPayFrozenAt(db: Kysely<Schema>, userId: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom('palm_pay_freezes')
    .select('frozen_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? new Date(row.frozen_at) : undefined;
}

/** Lifts the user's freeze and records it, in one transaction; false when palm pay was not paused. */
export async function liftPalmPayFreeze(db: Kysely<Schema>, userId: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const lifted = await trx
      .deleteFrom('palm_pay_freezes')
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst();
    if (!lifted) return false;
    await trx
      .insertInto('palm_pay_freeze_events')
      .values({ id: randomUUID(), user_id: userId, type: 'unfrozen', created_at: now })
      .execute();
    return true;
  });
}
