-- Rewards (issue 24): points are a second asset in the same double-entry books. Every account holds one
-- asset; a person's points live in their own account (kind 'points', keyed by points_user_id, so a person's
-- rupee account stays the one row with their user_id). A transfer moves one asset: the posting function
-- refuses two accounts of different assets (asset_mismatch) and the auditor checks that each asset's
-- balances sum to zero.
ALTER TABLE ledger_accounts ADD COLUMN asset text NOT NULL DEFAULT 'inr' CHECK (asset IN ('inr', 'points'));
ALTER TABLE ledger_accounts ADD COLUMN points_user_id uuid UNIQUE REFERENCES users (id);
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('user', 'merchant', 'system', 'points'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_check CHECK (
  (kind = 'user' AND asset = 'inr' AND user_id IS NOT NULL AND merchant_id IS NULL AND points_user_id IS NULL)
  OR (kind = 'merchant' AND asset = 'inr' AND merchant_id IS NOT NULL AND user_id IS NULL AND points_user_id IS NULL)
  OR (kind = 'points' AND asset = 'points' AND points_user_id IS NOT NULL AND user_id IS NULL AND merchant_id IS NULL)
  OR (kind = 'system' AND user_id IS NULL AND merchant_id IS NULL AND points_user_id IS NULL)
);

-- The rewards expense account (rupees): redeemed points are paid into wallets from here, so the rupee books
-- still balance (a system account may go below zero: what the programme cost).
INSERT INTO ledger_accounts (id, kind, asset) VALUES ('00000000-0000-4000-8000-000000000003', 'system', 'inr');
-- The points issuance account: points are awarded from here and come back here when redeemed or taken back.
INSERT INTO ledger_accounts (id, kind, asset) VALUES ('00000000-0000-4000-8000-000000000004', 'system', 'points');

ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check;
ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check
  CHECK (kind IN ('issuance', 'transfer', 'payment', 'reversal', 'payout', 'reward', 'redemption'));

-- Referrals: every person's code (made on first look), and who joined with whose code.
CREATE TABLE referral_codes (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{8}$'),
  -- How many times its owner shared the link (the Rewards tab's "sent").
  shares integer NOT NULL DEFAULT 0 CHECK (shares >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE referrals (
  -- A person joins with one code at most.
  referred_user_id uuid PRIMARY KEY REFERENCES users (id),
  referrer_user_id uuid NOT NULL REFERENCES users (id),
  joined_at timestamptz NOT NULL DEFAULT now(),
  -- Set in the transaction that pays both sides (the referred person's first payment).
  rewarded_at timestamptz,
  CHECK (referred_user_id <> referrer_user_id)
);
CREATE INDEX referrals_referrer_idx ON referrals (referrer_user_id);

-- Why each points transfer was made (the Rewards tab's list, the take-back of a reversed payment's award,
-- the admin's totals): written in the transfer's own transaction.
CREATE TABLE reward_entries (
  transfer_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
  user_id uuid NOT NULL REFERENCES users (id),
  reason text NOT NULL CHECK (reason IN ('palm_payment', 'kiosk_bonus', 'referral', 'take_back', 'redemption')),
  -- Signed: positive for points in, negative for points out.
  points bigint NOT NULL CHECK (points <> 0),
  -- What caused it: the palm payment, the referral's other person, the award taken back.
  cause_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reward_entries_user_idx ON reward_entries (user_id, created_at DESC);
CREATE INDEX reward_entries_cause_idx ON reward_entries (cause_id) WHERE cause_id IS NOT NULL;
