-- Enrolment needs the owner, freshly (issue 21). A palm is enrolled, or palm pay unfrozen, only by a session
-- whose owner proved it is them within the last 5 minutes: a code to their own phone (else email), the
-- purposes 'palm_enrol' and 'palm_unfreeze' of the one-time code machinery (same send and failure limits).
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check
  CHECK (purpose IN ('login', 'registration', 'transfer', 'password_reset', 'palm_enrol', 'palm_unfreeze'));
ALTER TABLE otp_events DROP CONSTRAINT otp_events_purpose_check;
ALTER TABLE otp_events ADD CONSTRAINT otp_events_purpose_check
  CHECK (purpose IS NULL OR purpose IN
    ('login', 'registration', 'transfer', 'password_reset', 'palm_enrol', 'palm_unfreeze', 'palm_enrol_request'));

-- A verified step-up of one session for one purpose. `method` is how the owner proved it: today a one-time
-- code; a passkey (a later issue) adds its value here and the checks that read this table stay as they are.
CREATE TABLE palm_step_ups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('palm_enrol', 'palm_unfreeze')),
  method text NOT NULL CHECK (method IN ('otp')),
  verified_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX palm_step_ups_session_idx ON palm_step_ups (session_id, purpose, expires_at DESC);

-- Admin-assisted enrolment (spec §2.17): the scan is already the protected template (with its probe, the
-- keyed hashes under every alignment, so the duplicate search runs again at approval), sealed under the
-- template key; never the image or the feature. Nothing is enrolled until the owner approves with the code
-- sent to their own phone or email (only its keyed hash is kept). The sealed data is dropped (NULL) once the
-- request is closed; one past its expiry is closed as 'expired' when it is next read or another starts.
CREATE TABLE palm_enrolment_requests (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  admin_user_id uuid NOT NULL REFERENCES users (id),
  hand text NOT NULL CHECK (hand IN ('left', 'right')),
  key_id text NOT NULL,
  sealed_template bytea,
  channel text NOT NULL CHECK (channel IN ('sms', 'email')),
  sent_to text NOT NULL,
  code_hash text NOT NULL,
  failed_attempts int NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'approved', 'declined', 'expired', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  resolved_at timestamptz,
  CHECK ((status = 'waiting') = (resolved_at IS NULL)),
  CHECK (status = 'waiting' OR sealed_template IS NULL)
);
CREATE INDEX palm_enrolment_requests_user_idx ON palm_enrolment_requests (user_id, created_at DESC);

-- Registration attempts that reached the palm search, per account: a daily limit keeps registration from
-- being a way to try palms against everyone enrolled.
CREATE TABLE palm_registration_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_registration_attempts_user_idx ON palm_registration_attempts (user_id, created_at);
