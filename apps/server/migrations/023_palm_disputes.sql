-- Palm pay that a stolen photo, a stolen session or an insider cannot drain (issue 21): per-payer limits on
-- palm-alone payments, a notice for every palm payment with a one-time "Not me?" link, and disputes.

-- Every palm payment (palm-alone, or waiting for the payer's code), written in the payment's transaction:
-- the limits count the palm-alone ones of a payer (under a per-payer lock, so two cannot both pass), and a
-- dispute reads where the scan was taken (the receiving session's device, as far as it is known).
CREATE TABLE palm_payments (
  transfer_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
  payer_user_id uuid NOT NULL REFERENCES users (id),
  receiver_user_id uuid NOT NULL REFERENCES users (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0),
  palm_alone boolean NOT NULL,
  device text CHECK (char_length(device) <= 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_payments_palm_alone_idx ON palm_payments (payer_user_id, created_at DESC) WHERE palm_alone;

-- Why a palm payment waits for the payer's code: above the per-payment limit, past the day's or the hour's
-- palm-alone limit, or a palm enrolled less than PALM_NEW_ENROLMENT_HOLD_HOURS ago.
ALTER TABLE palm_payment_confirmations
  ADD COLUMN reason text NOT NULL DEFAULT 'amount' CHECK (reason IN ('amount', 'daily', 'hourly', 'new_palm'));

-- The payer's notice of a palm payment that moved money, written in the transaction that moved it (so no
-- payment goes unannounced), sent right after and, while unsent, again by the expiry round. Its "Not me?"
-- link carries a random token of which only the hash is kept: single use, 7 days, this payment and payer.
-- A notice never sent gets a fresh token when it is sent again (nobody holds the old one).
CREATE TABLE palm_payment_notices (
  transfer_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
  payer_user_id uuid NOT NULL REFERENCES users (id),
  token_hash text NOT NULL UNIQUE,
  link_origin text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  sent_at timestamptz,
  send_attempts int NOT NULL DEFAULT 0 CHECK (send_attempts >= 0),
  last_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_payment_notices_unsent_idx ON palm_payment_notices (last_attempt_at) WHERE sent_at IS NULL;

-- A palm payment its payer reported as "Not me" (from the notice's link or the History): open until an admin
-- refunds it (a ledger reversal from the payee, or from the losses account when the payee cannot cover it)
-- or rejects it with a reason. One dispute per payment.
CREATE TABLE palm_disputes (
  id uuid PRIMARY KEY,
  transfer_id uuid NOT NULL UNIQUE REFERENCES ledger_transfers (id),
  payer_user_id uuid NOT NULL REFERENCES users (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'refunded', 'rejected')),
  opened_via text NOT NULL CHECK (opened_via IN ('link', 'history')),
  device text,
  similarity real,
  reason text CHECK (char_length(reason) <= 500),
  refunded_from text CHECK (refunded_from IN ('payee', 'losses')),
  refund_transfer_id uuid UNIQUE REFERENCES ledger_transfers (id),
  resolved_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  CHECK ((status = 'open') = (resolved_at IS NULL)),
  CHECK ((status = 'refunded') = (refund_transfer_id IS NOT NULL AND refunded_from IS NOT NULL)),
  CHECK (status <> 'rejected' OR reason IS NOT NULL)
);
CREATE INDEX palm_disputes_payer_idx ON palm_disputes (payer_user_id, created_at DESC);
CREATE INDEX palm_disputes_status_idx ON palm_disputes (status, created_at DESC);

-- The losses account: refunds of disputed palm payments the payee can no longer cover come from here, so the
-- books still balance (a system account, like the issuance account, may go below zero).
INSERT INTO ledger_accounts (id, kind) VALUES ('00000000-0000-4000-8000-000000000002', 'system');
