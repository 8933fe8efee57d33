-- Merchants for real: settings, bank accounts, payouts that wait for settlement, and payment QR codes.

ALTER TABLE merchants
  ADD COLUMN vendor_registration_id uuid UNIQUE REFERENCES vendor_registrations (id),
  ADD COLUMN notify_email boolean NOT NULL DEFAULT true,
  ADD COLUMN notify_sms boolean NOT NULL DEFAULT false;

CREATE TABLE merchant_bank_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  holder_name text NOT NULL,
  account_number text NOT NULL CHECK (account_number ~ '^[0-9]{9,18}$'),
  ifsc text NOT NULL CHECK (ifsc ~ '^[A-Z]{4}0[A-Z0-9]{6}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merchant_bank_accounts_merchant_idx ON merchant_bank_accounts (merchant_id);

-- A payout is a pending ledger transfer from the merchant to the system account: reserved until an admin
-- settles it (posted) or rejects it (voided).
CREATE TABLE merchant_payouts (
  id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  bank_account_id uuid NOT NULL REFERENCES merchant_bank_accounts (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'settled', 'rejected')),
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by uuid REFERENCES users (id)
);
CREATE INDEX merchant_payouts_merchant_idx ON merchant_payouts (merchant_id, created_at DESC);

CREATE TABLE merchant_qr_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  token text NOT NULL UNIQUE,
  amount_paise bigint CHECK (amount_paise IS NULL OR amount_paise > 0),
  scans integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merchant_qr_codes_merchant_idx ON merchant_qr_codes (merchant_id, created_at DESC);
