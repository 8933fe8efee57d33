-- The 60-second resend cooldown applies to repeats of the same kind of code, so a person who has just
-- registered can ask for a login code at once. The 3-per-10-minutes allowance stays per address.
ALTER TABLE otp_events ADD COLUMN purpose text
  CHECK (purpose IS NULL OR purpose IN ('login', 'registration', 'transfer', 'password_reset'));
CREATE INDEX otp_events_cooldown_idx ON otp_events (identifier, purpose, created_at) WHERE kind = 'send';
