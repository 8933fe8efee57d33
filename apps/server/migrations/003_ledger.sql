-- The double-entry ledger: accounts with posted and pending counters, append-only transfers in paise, and
-- the outcome of every transfer request id (idempotency).

CREATE TABLE ledger_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('user', 'merchant', 'system')),
  user_id uuid UNIQUE REFERENCES users (id),
  merchant_id uuid UNIQUE REFERENCES merchants (id),
  debits_posted bigint NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
  credits_posted bigint NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
  debits_pending bigint NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
  credits_pending bigint NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (kind = 'user' AND user_id IS NOT NULL AND merchant_id IS NULL)
    OR (kind = 'merchant' AND merchant_id IS NOT NULL AND user_id IS NULL)
    OR (kind = 'system' AND user_id IS NULL AND merchant_id IS NULL)
  ),
  -- The last line of defence: nobody but the issuance account spends money it does not have.
  CHECK (kind = 'system' OR credits_posted - debits_posted - debits_pending >= 0)
);

-- The issuance account: money enters the wallets from here, so every balance sums to zero.
INSERT INTO ledger_accounts (id, kind) VALUES ('00000000-0000-4000-8000-000000000001', 'system');

CREATE TABLE ledger_requests (
  id uuid PRIMARY KEY,
  request_hash text NOT NULL,
  error_code text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger_transfers (
  id uuid PRIMARY KEY REFERENCES ledger_requests (id),
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  debit_account_id uuid NOT NULL REFERENCES ledger_accounts (id),
  credit_account_id uuid NOT NULL REFERENCES ledger_accounts (id),
  amount_paise bigint NOT NULL CHECK (amount_paise > 0),
  kind text NOT NULL CHECK (kind IN ('issuance', 'transfer', 'payment', 'reversal', 'payout')),
  phase text NOT NULL CHECK (phase IN ('single', 'pending', 'post', 'void')),
  pending_id uuid REFERENCES ledger_transfers (id),
  timeout_at timestamptz,
  reverses_id uuid UNIQUE REFERENCES ledger_transfers (id),
  initiated_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (debit_account_id <> credit_account_id),
  CHECK ((phase IN ('post', 'void')) = (pending_id IS NOT NULL)),
  CHECK ((phase = 'pending') = (timeout_at IS NOT NULL))
);
-- A pending transfer is posted or voided once.
CREATE UNIQUE INDEX ledger_transfers_resolution_key ON ledger_transfers (pending_id) WHERE pending_id IS NOT NULL;
CREATE INDEX ledger_transfers_debit_idx ON ledger_transfers (debit_account_id, seq DESC);
CREATE INDEX ledger_transfers_credit_idx ON ledger_transfers (credit_account_id, seq DESC);

CREATE FUNCTION ledger_transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transfers is append-only: % refused', TG_OP USING ERRCODE = 'raise_exception';
END;
$$;
CREATE TRIGGER ledger_transfers_no_update_delete
  BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_append_only();
CREATE TRIGGER ledger_transfers_no_truncate
  BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_append_only();
