-- Sessions, one-time codes and their throttles, and verified contacts awaiting use.

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;

CREATE TABLE otp_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identifier text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('login', 'registration', 'transfer', 'password_reset')),
  code_hash text NOT NULL,
  link_token_hash text UNIQUE,
  session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  CHECK (purpose <> 'transfer' OR session_id IS NOT NULL)
);
CREATE INDEX otp_codes_lookup_idx ON otp_codes (identifier, purpose, created_at DESC);

CREATE TABLE otp_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  identifier text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('send', 'failure')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_events_lookup_idx ON otp_events (identifier, kind, created_at);

CREATE TABLE verifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  identifier text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('registration', 'transfer')),
  session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
