import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** What the devices use cases need: the database, the server secret (keys pairing codes' hashes), a clock. */
export interface DeviceDeps {
  db: Kysely<Schema>;
  /** COOKIE_SECRET: keys the hashes of pairing codes (8 characters are too few for a plain hash). */
  secret: string;
  now: () => Date;
}

/** The signed-in person calling, as the devices use cases see them. */
export interface DeviceCaller {
  userId: string;
  role: string;
}
