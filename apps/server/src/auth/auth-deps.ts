import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Messenger } from '../messaging/messenger';
import type { SmsPolicy } from './sms-budget';

/** What the account use cases need: the database, the server secret that keys the codes, and the messenger. */
export interface AuthDeps {
  db: Kysely<Schema>;
  /** COOKIE_SECRET: keys the hashes of one-time codes. */
  secret: string;
  messenger: Messenger;
  /** The clock codes, attempt delays and SMS budgets are read on. */
  now: () => Date;
  /** Where codes may be texted, and how many an hour (SMS_* settings). */
  sms: SmsPolicy;
  /** Told when a notice to an owner about failed attempts could not be sent. */
  onNoticeFailed?: ((error: unknown) => void) | undefined;
}

/** The session a request came with, when it came with one. */
export interface Caller {
  sessionId: string;
  user: { id: string; email: string | null; phone: string | null };
}
