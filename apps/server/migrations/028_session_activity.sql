-- Session lifetimes (issue 23 item 2): a session ends when idle too long for its user's role (15 minutes for
-- admins, 12 hours for store owners, 7 days for people) as well as 30 days after it began (expires_at).
-- `last_seen_at` is the last use, written at most once a minute; `user_agent` is the browser or device the
-- session was first used from, shown in the owner's list of sessions.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE sessions ADD COLUMN user_agent text;
UPDATE sessions SET last_seen_at = created_at;
