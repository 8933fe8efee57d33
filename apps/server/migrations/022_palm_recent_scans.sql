-- Each person's recent palm scans (issue 21, item 4; decision 025): the protected template of every scan
-- that named them in a palm payment, sealed like palm_templates (AES-256-GCM under the template key's seal
-- key, key_id naming that key). A new scan closer than the replay floor to one of them (or to the enrolled
-- template) is a copy of an earlier scan and pays nothing. Kept: the newest 50 per person, none older than
-- 30 days (pruned as each is inserted); deleted with the person's palm data on erasure.
CREATE TABLE palm_recent_scans (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  key_id text NOT NULL,
  sealed_template bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_recent_scans_user_idx ON palm_recent_scans (user_id, created_at DESC);
