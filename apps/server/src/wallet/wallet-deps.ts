import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';

/** What the app hands the wallet routes for their use cases: the database and the process's one ledger. */
export interface WalletDeps {
  db: Kysely<Schema>;
  ledger: Ledger;
}
