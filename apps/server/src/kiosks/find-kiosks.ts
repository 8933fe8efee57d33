import type { Kiosk } from '@hasta/contracts/kiosks';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { listKiosks } from './kiosk-repository';

export interface KioskDeps {
  db: Kysely<Schema>;
}

/** The most kiosks one answer lists. */
export const MAX_KIOSKS = 500;

/**
 * Palm registration kiosks, optionally found by a search: digits are a pincode (or its start), anything else
 * is looked for in the city, name and address.
 */
export function findKiosks(deps: KioskDeps, search: string | undefined): Promise<Kiosk[]> {
  const filter = !search ? {} : /^\d+$/.test(search) ? { pincodePrefix: search } : { text: search };
  return listKiosks(deps.db, filter, MAX_KIOSKS);
}
