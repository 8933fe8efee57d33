import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { TransparencyLog } from './transparency-log';

/** What the log's public reads need: the log itself, and the database to check who a receipt concerns. */
export interface LogDeps {
  db: Kysely<Schema>;
  log: TransparencyLog;
}
