import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** The relying party as configured (WEBAUTHN_* settings, validated at boot in env.ts). */
export interface PasskeyConfig {
  rpId: string;
  rpName: string;
  /** The origins pages may run the ceremonies on. */
  origins: string[];
  /** PASSKEY_SECOND_FACTOR: `off` only for a demo without any authenticator (refused in production). */
  secondFactor: 'required' | 'off';
}

/** What the passkey use cases need: the database, the relying party, and the clock. */
export interface PasskeyDeps {
  db: Kysely<Schema>;
  config: PasskeyConfig;
  now: () => Date;
}
