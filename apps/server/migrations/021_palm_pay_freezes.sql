-- Palm pay paused for a person (issue 21): set by "Not me" (from a palm payment's notice or the History),
-- it stops every palm payment of that person at once, on every hand and every device. Checked inside each
-- palm payment's transaction (no cache). The person lifts it with a fresh step-up; the row is then deleted
-- and the lifting is recorded in palm_pay_freeze_events.
CREATE TABLE palm_pay_freezes (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  reason text NOT NULL CHECK (reason IN ('not_me')),
  frozen_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE palm_pay_freeze_events (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('frozen', 'unfrozen')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_pay_freeze_events_user_idx ON palm_pay_freeze_events (user_id, created_at DESC);
