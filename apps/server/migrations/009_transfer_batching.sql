-- A transfer spends the newest unspent verification of its session; batches look them up by session.
CREATE INDEX verifications_unspent_session_idx
  ON verifications (session_id, purpose, created_at DESC)
  WHERE consumed_at IS NULL;
