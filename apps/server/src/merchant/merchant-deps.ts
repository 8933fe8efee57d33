import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Ledger } from '../ledger/ledger';
import type { PendingExpiry } from '../ledger/pending-expiry';
import type { Messenger } from '../messaging/messenger';
import type { SmsPolicy } from '../auth/sms-budget';

/** What the merchant use cases work with, built once by the app and handed to its routes. */
export interface MerchantDeps {
  db: Kysely<Schema>;
  ledger: Ledger;
  messenger: Messenger;
  pendingExpiry: PendingExpiry;
  /** COOKIE_SECRET: keys the hashes of the store's contact and step-up codes. */
  secret: string;
  /** Where and how many codes may be texted (a store's new contact phone gets one). */
  sms: SmsPolicy;
  /** The clock the app runs on (tests inject one); the wall clock when absent. */
  now?: () => Date;
  /** A store notice that could not be sent: logged, never a failed decision (the ledger already has it). */
  onNoticeFailed: (error: unknown) => void;
}
