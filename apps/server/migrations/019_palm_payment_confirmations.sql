-- A palm payment above PALM_MAX_PAYMENT_PAISE waits for a second factor (decision 022): the palm names the
-- payer, a pending ledger transfer reserves the amount, and a code goes to the payer's own phone or email.
-- The receiver enters it to post the payment, or cancels (void); one nobody confirms expires with its
-- pending transfer (the ledger's expiry round). Only the code's keyed hash is kept.
CREATE TABLE palm_payment_confirmations (
  transfer_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
  payer_user_id uuid NOT NULL REFERENCES users (id),
  receiver_user_id uuid NOT NULL REFERENCES users (id),
  channel text NOT NULL CHECK (channel IN ('sms', 'email')),
  code_hash text NOT NULL,
  failed_attempts int NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  outcome text CHECK (outcome IN ('paid', 'cancelled', 'failed', 'expired')),
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE INDEX palm_payment_confirmations_payer_idx ON palm_payment_confirmations (payer_user_id, created_at DESC);
