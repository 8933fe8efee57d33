-- Passkeys (issue 23 item 1, WebAuthn). An account's passkeys: the credential id and public key its
-- authenticator made (COSE, as @simplewebauthn returns it), the signature counter, the transports the
-- browser reported (comma-separated), a name the owner reads, and when it was made and last used.
CREATE TABLE passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text NOT NULL DEFAULT '',
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at);

-- A ceremony's challenge, kept on the server: single use (consumed_at), short-lived (expires_at), bound to
-- the session that asked and to what it approves (its purpose; a transfer's amount and receiver).
CREATE TABLE passkey_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  challenge text NOT NULL UNIQUE,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ceremony text NOT NULL CHECK (ceremony IN ('registration', 'authentication')),
  purpose text NOT NULL CHECK (purpose IN ('sign_in', 'add', 'reauth', 'transfer', 'palm_enrol',
    'palm_unfreeze', 'store_bank_account', 'store_withdrawal', 'passkey_manage')),
  transfer_amount_paise bigint CHECK (transfer_amount_paise IS NULL OR transfer_amount_paise > 0),
  transfer_receiver text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  CHECK ((purpose = 'transfer') = (transfer_amount_paise IS NOT NULL AND transfer_receiver IS NOT NULL))
);
CREATE INDEX passkey_challenges_expiry_idx ON passkey_challenges (expires_at);

-- Recovery codes of admins and store owners: shown once when their first passkey is registered, kept only as
-- keyed hashes, each usable once in place of a passkey at sign-in.
CREATE TABLE recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz
);
CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

-- A session of an admin or a store owner is only pending after the password or code until its second factor
-- (a passkey, or a recovery code): second_factor_at. passkey_verified_at is the last passkey use in this
-- session (admin actions that move money ask again after 5 minutes). Sessions that exist today have neither:
-- admins and store owners pass the second factor on their next request.
ALTER TABLE sessions ADD COLUMN second_factor_at timestamptz;
ALTER TABLE sessions ADD COLUMN passkey_verified_at timestamptz;

-- A step-up may be proven with a passkey (the `method` seam of migration 024), and adding or removing a
-- passkey needs one (purpose 'passkey_manage', by code or by another passkey).
ALTER TABLE palm_step_ups DROP CONSTRAINT palm_step_ups_method_check;
ALTER TABLE palm_step_ups ADD CONSTRAINT palm_step_ups_method_check CHECK (method IN ('otp', 'passkey'));
ALTER TABLE palm_step_ups DROP CONSTRAINT palm_step_ups_purpose_check;
ALTER TABLE palm_step_ups ADD CONSTRAINT palm_step_ups_purpose_check
  CHECK (purpose IN ('palm_enrol', 'palm_unfreeze', 'store_bank_account', 'store_withdrawal', 'passkey_manage'));
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check
  CHECK (purpose IN ('login', 'registration', 'transfer', 'password_reset', 'palm_enrol', 'palm_unfreeze',
                     'store_contact', 'store_bank_account', 'store_withdrawal', 'passkey_manage'));
ALTER TABLE otp_events DROP CONSTRAINT otp_events_purpose_check;
ALTER TABLE otp_events ADD CONSTRAINT otp_events_purpose_check
  CHECK (purpose IS NULL OR purpose IN
    ('login', 'registration', 'transfer', 'password_reset', 'palm_enrol', 'palm_unfreeze', 'palm_enrol_request',
     'store_contact', 'store_bank_account', 'store_withdrawal', 'passkey_manage'));
