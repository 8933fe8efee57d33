-- Palm scans that recognised nobody, per receiving account: identification answers "whose palm is this?"
-- for anyone who can sign in, so unrecognised scans are throttled like failed OTPs (decision 014).
CREATE TABLE palm_scan_failures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  receiver_user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_scan_failures_receiver_idx ON palm_scan_failures (receiver_user_id, created_at);
