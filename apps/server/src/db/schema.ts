import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type UserRole = 'user' | 'merchant' | 'admin';

export interface UsersTable {
  id: Generated<string>;
  email: string | null;
  phone: string | null;
  username: string;
  password_hash: string | null;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  must_change_password: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MerchantsTable {
  id: Generated<string>;
  owner_user_id: string;
  store_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  /** The last contact whose code came back (migration 027): the only ones payers and notices see. */
  verified_contact_email: ColumnType<string | null, string | null | undefined, string | null>;
  verified_contact_phone: ColumnType<string | null, string | null | undefined, string | null>;
  vendor_registration_id: string | null;
  notify_email: ColumnType<boolean, boolean | undefined, boolean>;
  notify_sms: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

export interface MerchantBankAccountsTable {
  id: Generated<string>;
  merchant_id: string;
  holder_name: string;
  account_number: string;
  ifsc: string;
  created_at: Timestamp;
}

export interface MerchantPayoutsTable {
  id: string;
  merchant_id: string;
  bank_account_id: string;
  amount_paise: bigint;
  status: ColumnType<
    'pending' | 'settled' | 'rejected' | 'expired',
    'pending' | undefined,
    'settled' | 'rejected' | 'expired'
  >;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
}

export interface MerchantQrCodesTable {
  id: Generated<string>;
  merchant_id: string;
  /** The printed code's `qr` id: random, unguessable, unique. */
  token: string;
  amount_paise: bigint | null;
  label: string | null;
  scans: ColumnType<number, number | undefined, number>;
  last_scanned_at: Timestamp | null;
  created_at: Timestamp;
}

export interface KiosksTable {
  id: Generated<string>;
  name: string;
  lat: number;
  lng: number;
  address: string;
  city: string;
  pincode: string;
  status: string;
  type: string;
  hours: string;
  name_hi: string | null;
  address_hi: string | null;
  city_hi: string | null;
  hours_hi: string | null;
  created_at: Timestamp;
}

export interface OutboxMessagesTable {
  id: Generated<string>;
  channel: 'email' | 'sms';
  to_address: string;
  subject: string | null;
  body: string;
  created_at: Timestamp;
}

export type OtpPurpose =
  | 'login'
  | 'registration'
  | 'transfer'
  | 'password_reset'
  /** A palm step-up (migration 024): bound to the session that asked, like a transfer code. */
  | 'palm_enrol'
  | 'palm_unfreeze'
  /** A store's new contact address (migration 027): sent to that address, bound to the session. */
  | 'store_contact'
  /** A store owner's step-up (migration 027) before adding a bank account or asking for a withdrawal. */
  | 'store_bank_account'
  | 'store_withdrawal'
  /** Adding or removing a passkey (migration 030): bound to the session, like the other step-ups. */
  | 'passkey_manage';

export interface SessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The last use, written at most once a minute (migration 028): the idle timeout counts from it. */
  last_seen_at: Timestamp;
  /** The User-Agent the session was first used with (migration 028), or null. */
  user_agent: string | null;
  /** When an admin's or store owner's session passed its second factor (migration 030); null: pending. */
  second_factor_at: Timestamp | null;
  /** The last passkey use in this session (migration 030). */
  passkey_verified_at: Timestamp | null;
}

export interface OtpCodesTable {
  id: Generated<string>;
  identifier: string;
  purpose: OtpPurpose;
  code_hash: string;
  link_token_hash: string | null;
  session_id: string | null;
  /** A transfer code's amount and receiver (migration 026): both null for an unbound code. */
  transfer_amount_paise: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  transfer_receiver: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface OtpEventsTable {
  id: Generated<string>;
  identifier: string;
  /** 'sms': a code or notice texted (the SMS budgets); 'owner_notice': the owner told of failures. */
  kind: 'send' | 'failure' | 'sms' | 'owner_notice';
  /** Sends only: what the code was for ('palm_enrol_request': an admin-assisted enrolment's code). */
  purpose: OtpPurpose | 'palm_enrol_request' | null;
  /** Failures and SMS: the client's address (an IPv6 one by its /64); null on rows from before. */
  client: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface VerificationsTable {
  id: Generated<string>;
  token_hash: string;
  identifier: string;
  purpose: 'registration' | 'transfer';
  session_id: string | null;
  /** What a bound transfer code approved (migration 026): only this amount to this receiver. */
  transfer_amount_paise: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  transfer_receiver: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A verification is spent once it has a row here (migration 015): spends append, never update. */
export interface VerificationSpendsTable {
  verification_id: string;
  spent_at: Timestamp;
}

export interface LedgerAccountsTable {
  id: Generated<string>;
  kind: 'user' | 'merchant' | 'system' | 'points';
  /** Rupees (paise) or reward points (migration 031). */
  asset: ColumnType<'inr' | 'points', 'inr' | 'points' | undefined, never>;
  user_id: string | null;
  merchant_id: string | null;
  /** A person's points account: its owner. */
  points_user_id: string | null;
  debits_posted: ColumnType<bigint, bigint | undefined, bigint>;
  credits_posted: ColumnType<bigint, bigint | undefined, bigint>;
  debits_pending: ColumnType<bigint, bigint | undefined, bigint>;
  credits_pending: ColumnType<bigint, bigint | undefined, bigint>;
  created_at: Timestamp;
}

export interface LedgerRequestsTable {
  id: string;
  request_hash: string;
  error_code: string | null;
  created_at: Timestamp;
}

export interface LedgerTransfersTable {
  id: string;
  seq: Generated<bigint>;
  debit_account_id: string;
  credit_account_id: string;
  amount_paise: bigint;
  kind: 'issuance' | 'transfer' | 'payment' | 'reversal' | 'payout' | 'reward' | 'redemption';
  phase: 'single' | 'pending' | 'post' | 'void';
  pending_id: string | null;
  timeout_at: Timestamp | null;
  reverses_id: string | null;
  initiated_by: string | null;
  created_at: Timestamp;
}

export interface ReferralCodesTable {
  user_id: string;
  code: string;
  shares: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export interface ReferralsTable {
  referred_user_id: string;
  referrer_user_id: string;
  joined_at: Timestamp;
  rewarded_at: Timestamp | null;
}

export interface RewardEntriesTable {
  transfer_id: string;
  user_id: string;
  reason: 'palm_payment' | 'kiosk_bonus' | 'referral' | 'take_back' | 'redemption';
  points: bigint;
  cause_id: string | null;
  created_at: Timestamp;
}

export interface ApplicantsTable {
  id: Generated<string>;
  username: string;
  email: string;
  phonenumber: string;
  description: string;
  created_at: Timestamp;
}

export interface InquiriesTable {
  id: Generated<string>;
  name: string;
  email_or_phone: string;
  role: string;
  message: string;
  created_at: Timestamp;
}

export interface VendorRegistrationsTable {
  id: Generated<string>;
  business_name: string;
  owner_name: string;
  email: string;
  phone: string;
  address: string;
  interests: string[];
  comments: string;
  created_at: Timestamp;
}

export interface KioskApplicationsTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string;
  address: string;
  premises: string;
  footfall: string;
  power: boolean;
  internet: boolean;
  created_at: Timestamp;
}

/** The change feed of what replicas keep in memory (migration 029), written by triggers only. */
export interface ReplicaChangesTable {
  seq: Generated<bigint>;
  /** The writing transaction's id (xid8, read as text). */
  xid: Generated<string>;
  kind: 'palm' | 'session';
  user_id: string;
  at: Generated<Date>;
}

export interface TlogOutboxTable {
  id: Generated<bigint>;
  type: string;
  ref_id: string;
  user_id: string | null;
  at: Generated<Date>;
}

export interface TlogEntriesTable {
  idx: ColumnType<bigint, bigint | number, never>;
  entry: string;
  leaf_hash: string;
  type: string;
  ref_id: string;
  user_id: string | null;
  sealed_record: Uint8Array;
  created_at: Generated<Date>;
}

export interface TlogNodesTable {
  level: number;
  idx: ColumnType<bigint, bigint | number, never>;
  hash: Uint8Array;
}

export interface TlogCheckpointsTable {
  tree_size: ColumnType<bigint, bigint | number, never>;
  root: Uint8Array;
  note: string;
  created_at: Generated<Date>;
}

export interface TlogAnchorsTable {
  id: Generated<bigint>;
  tree_size: ColumnType<bigint, bigint | number, never>;
  root: Uint8Array;
  chain: string;
  chain_id: ColumnType<bigint, bigint | number, never>;
  contract: string;
  tx_hash: string;
  raw_tx: string | null;
  status: 'sent' | 'confirmed' | 'failed';
  block_number: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  gas_used: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  anchored_at: Date;
  settled_at: Date | null;
}

export interface UserDataKeysTable {
  user_id: string;
  wrapped_key: Uint8Array | null;
  destroyed_at: Date | null;
}

export interface TlogSettingsTable {
  id: number;
  signer_key: string;
  secret: string;
}

export interface PalmTemplatesTable {
  id: string;
  user_id: string;
  hand: 'left' | 'right';
  key_id: string;
  sealed_template: Uint8Array;
  palm_hash: string;
  /** The paired device the palm was enrolled on (issue 22). */
  device_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

export interface PalmConsentsTable {
  id: string;
  user_id: string;
  hand: 'left' | 'right';
  granted_at: Generated<Date>;
  withdrawn_at: Date | null;
}

export interface PalmEventsTable {
  id: string;
  seq: ColumnType<string, never, never>;
  user_id: string;
  type: 'consent.granted' | 'consent.withdrawn' | 'palm.enrolled' | 'palm.erased' | 'palm.scan';
  hand: 'left' | 'right' | null;
  status: string | null;
  similarity: number | null;
  /** palm.scan of a palm payment: the transfer it paid. */
  transfer_id: ColumnType<string | null, string | null | undefined, never>;
  /** palm.scan of a palm payment: the template that matched. */
  template_id: ColumnType<string | null, string | null | undefined, never>;
  created_at: Generated<Date>;
}

export interface PalmPaymentConfirmationsTable {
  transfer_id: string;
  payer_user_id: string;
  receiver_user_id: string;
  channel: 'sms' | 'email';
  code_hash: string;
  failed_attempts: ColumnType<number, number | undefined, number>;
  outcome: ColumnType<
    'paid' | 'cancelled' | 'failed' | 'expired' | null,
    never,
    'paid' | 'cancelled' | 'failed' | 'expired'
  >;
  created_at: Generated<Date>;
  resolved_at: ColumnType<Date | null, never, Date>;
  /** Why it waits for the payer's code. */
  reason: ColumnType<PalmCodeReason, PalmCodeReason | undefined, never>;
}

/** Why a palm payment waits for the payer's code (issue 21). */
export type PalmCodeReason = 'amount' | 'daily' | 'hourly' | 'new_palm';

/** Every palm payment, written in its transaction: the palm-alone limits count these. */
export interface PalmPaymentsTable {
  transfer_id: string;
  payer_user_id: string;
  receiver_user_id: string;
  amount_paise: bigint;
  palm_alone: boolean;
  device: string | null;
  /** The paired device the scan was taken on (issue 22); null for payments from before devices. */
  device_id: ColumnType<string | null, string | null | undefined, never>;
  created_at: Timestamp;
}

/** The payer's notice of a palm payment and its one-time "Not me?" token (only its hash). */
export interface PalmPaymentNoticesTable {
  transfer_id: string;
  payer_user_id: string;
  token_hash: string;
  link_origin: string;
  expires_at: Date;
  used_at: ColumnType<Date | null, never, Date>;
  sent_at: ColumnType<Date | null, never, Date>;
  send_attempts: ColumnType<number, never, number>;
  last_attempt_at: ColumnType<Date, Date | undefined, Date>;
  created_at: Generated<Date>;
}

/** A palm payment its payer reported as "Not me". */
export interface PalmDisputesTable {
  id: string;
  transfer_id: string;
  payer_user_id: string;
  status: ColumnType<'open' | 'refunded' | 'rejected', undefined, 'refunded' | 'rejected'>;
  opened_via: 'link' | 'history';
  device: string | null;
  similarity: number | null;
  reason: ColumnType<string | null, undefined, string>;
  refunded_from: ColumnType<'payee' | 'losses' | null, undefined, 'payee' | 'losses'>;
  refund_transfer_id: ColumnType<string | null, undefined, string>;
  resolved_by: ColumnType<string | null, undefined, string>;
  created_at: Generated<Date>;
  resolved_at: ColumnType<Date | null, undefined, Date>;
}

/** Palm pay paused for a person ("Not me"); deleted when they lift it with a fresh step-up. */
/** A person's recent palm scans, sealed protected templates (migration 022, decision 025). */
export interface PalmRecentScansTable {
  id: string;
  user_id: string;
  key_id: string;
  sealed_template: Uint8Array;
  created_at: Generated<Date>;
}

export interface PalmPayFreezesTable {
  user_id: string;
  reason: 'not_me';
  frozen_at: Generated<Date>;
}

export interface PalmPayFreezeEventsTable {
  id: string;
  user_id: string;
  type: 'frozen' | 'unfrozen';
  created_at: Generated<Date>;
}

/** One limit's hits for one key in its current window, shared by every server process (migration 034). */
export interface RateLimitCountersTable {
  counter: string;
  key_hash: string;
  window_started_at: Date;
  window_ms: number;
  hits: number;
}

/** A session's verified step-up for one purpose (migration 024); `method` gains 'passkey' later. */
export interface PalmStepUpsTable {
  id: Generated<string>;
  session_id: string;
  user_id: string;
  purpose: 'palm_enrol' | 'palm_unfreeze' | 'store_bank_account' | 'store_withdrawal' | 'passkey_manage';
  method: 'otp' | 'passkey';
  verified_at: Generated<Date>;
  expires_at: Date;
}

/** An admin's palm registration for a user, waiting for the owner's code (migration 024). */
export interface PalmEnrolmentRequestsTable {
  id: string;
  /** The paired device the admin took the scan on (issue 22). */
  device_id: ColumnType<string | null, string | null | undefined, never>;
  user_id: string;
  admin_user_id: string;
  hand: 'left' | 'right';
  key_id: string;
  sealed_template: Uint8Array | null;
  channel: 'sms' | 'email';
  sent_to: string;
  code_hash: string;
  failed_attempts: ColumnType<number, number | undefined, number>;
  status: ColumnType<
    'waiting' | 'approved' | 'declined' | 'expired' | 'failed',
    'waiting' | undefined,
    'approved' | 'declined' | 'expired' | 'failed'
  >;
  created_at: Generated<Date>;
  expires_at: Date;
  resolved_at: Date | null;
}

export interface PalmRegistrationAttemptsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Generated<Date>;
}

export interface PalmScanFailuresTable {
  id: Generated<string>;
  receiver_user_id: string;
  created_at: Generated<Date>;
}

export interface PalmSettingsTable {
  id: number;
  template_key: string;
}

/** An account's passkey (migration 030). */
export interface PasskeysTable {
  id: Generated<string>;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: ColumnType<bigint, bigint | undefined, bigint>;
  /** Comma-separated, as the browser reported them. */
  transports: Generated<string>;
  name: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

export type PasskeyCeremony = 'registration' | 'authentication';
export type PasskeyChallengePurpose =
  | 'sign_in'
  | 'add'
  | 'reauth'
  | 'transfer'
  | 'palm_enrol'
  | 'palm_unfreeze'
  | 'store_bank_account'
  | 'store_withdrawal'
  | 'passkey_manage';

/** A ceremony's challenge: single use, short-lived, bound to its session and purpose (migration 030). */
export interface PasskeyChallengesTable {
  id: Generated<string>;
  challenge: string;
  session_id: string;
  user_id: string;
  ceremony: PasskeyCeremony;
  purpose: PasskeyChallengePurpose;
  transfer_amount_paise: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  transfer_receiver: string | null;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

/** A recovery code's keyed hash (migration 030). */
export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  created_at: Generated<Date>;
  used_at: Date | null;
}

/** A kiosk, a store's terminal or a person's own browser (issue 22). */
export interface DevicesTable {
  id: Generated<string>;
  kind: 'kiosk' | 'terminal' | 'personal';
  name: string;
  owner_user_id: string;
  merchant_id: string | null;
  kiosk_id: string | null;
  token_hash: string;
  public_key_jwk: string;
  created_at: Generated<Date>;
  last_seen_at: Date | null;
  revoked_at: Date | null;
}

export interface DevicePairingCodesTable {
  code_hash: string;
  kind: 'kiosk' | 'terminal';
  name: string;
  created_by: string;
  merchant_id: string | null;
  kiosk_id: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
  device_id: string | null;
}

export interface ScanChallengesTable {
  nonce: string;
  device_id: string;
  purpose: 'enrol' | 'pay' | 'receive';
  amount_paise: bigint | null;
  receiver: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
  idempotency_key: string | null;
  frames_sha256: string | null;
}

export interface Schema {
  devices: DevicesTable;
  device_pairing_codes: DevicePairingCodesTable;
  scan_challenges: ScanChallengesTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  recovery_codes: RecoveryCodesTable;
  palm_templates: PalmTemplatesTable;
  palm_consents: PalmConsentsTable;
  palm_events: PalmEventsTable;
  palm_settings: PalmSettingsTable;
  palm_scan_failures: PalmScanFailuresTable;
  palm_payment_confirmations: PalmPaymentConfirmationsTable;
  palm_pay_freezes: PalmPayFreezesTable;
  palm_recent_scans: PalmRecentScansTable;
  palm_pay_freeze_events: PalmPayFreezeEventsTable;
  palm_payments: PalmPaymentsTable;
  palm_payment_notices: PalmPaymentNoticesTable;
  palm_disputes: PalmDisputesTable;
  palm_step_ups: PalmStepUpsTable;
  rate_limit_counters: RateLimitCountersTable;
  palm_enrolment_requests: PalmEnrolmentRequestsTable;
  palm_registration_attempts: PalmRegistrationAttemptsTable;
  tlog_outbox: TlogOutboxTable;
  replica_changes: ReplicaChangesTable;
  tlog_entries: TlogEntriesTable;
  tlog_nodes: TlogNodesTable;
  tlog_checkpoints: TlogCheckpointsTable;
  tlog_anchors: TlogAnchorsTable;
  user_data_keys: UserDataKeysTable;
  tlog_settings: TlogSettingsTable;
  merchant_bank_accounts: MerchantBankAccountsTable;
  merchant_payouts: MerchantPayoutsTable;
  merchant_qr_codes: MerchantQrCodesTable;
  applicants: ApplicantsTable;
  inquiries: InquiriesTable;
  vendor_registrations: VendorRegistrationsTable;
  kiosk_applications: KioskApplicationsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_requests: LedgerRequestsTable;
  ledger_transfers: LedgerTransfersTable;
  referral_codes: ReferralCodesTable;
  referrals: ReferralsTable;
  reward_entries: RewardEntriesTable;
  sessions: SessionsTable;
  otp_codes: OtpCodesTable;
  otp_events: OtpEventsTable;
  verifications: VerificationsTable;
  verification_spends: VerificationSpendsTable;
  users: UsersTable;
  merchants: MerchantsTable;
  kiosks: KiosksTable;
  outbox_messages: OutboxMessagesTable;
}
