import type { Kiosk } from '@hasta/contracts/kiosks';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** `%`, `_` and `\` typed by a person match themselves, not any text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export type KioskFilter = { pincodePrefix: string } | { text: string } | Record<string, never>;

/**
 * Kiosks by city, then name; a pincode prefix, or a text found in the city, name or address (English or
 * Hindi).
 */
export async function listKiosks(db: Kysely<Schema>, filter: KioskFilter, limit: number): Promise<Kiosk[]> {
  let query = db
    .selectFrom('kiosks')
    .select([
      'id',
      'name',
      'lat',
      'lng',
      'address',
      'city',
      'pincode',
      'status',
      'type',
      'hours',
      'name_hi',
      'address_hi',
      'city_hi',
      'hours_hi',
    ]);
  if ('pincodePrefix' in filter) query = query.where('pincode', 'like', `${filter.pincodePrefix}%`);
  else if ('text' in filter) {
    const pattern = likePattern(filter.text);
    query = query.where((eb) =>
      eb.or([
        eb('city', 'ilike', pattern),
        eb('name', 'ilike', pattern),
        eb('address', 'ilike', pattern),
        eb('city_hi', 'ilike', pattern),
        eb('name_hi', 'ilike', pattern),
        eb('address_hi', 'ilike', pattern),
      ]),
    );
  }
  return query.orderBy('city').orderBy('name').limit(limit).execute();
}
