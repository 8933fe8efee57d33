import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** A registered palm as the dashboard shows it: which hand, and its public hash. */
export interface RegisteredPalm {
  hand: 'left' | 'right';
  palm_hash: string;
}

/** A user's registered palms, the first registered first. */
export async function registeredPalms(db: Kysely<Schema>, userId: string): Promise<RegisteredPalm[]> {
  return db
    .selectFrom('palm_templates')
    .select(['hand', 'palm_hash'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}
