-- The ledger's posting functions now live in one file, routines/ledger_post.sql, applied by the migrator
-- whenever its text changes (table schema_routines) instead of copied whole into a new migration for each
-- change. The batch function of migrations 014-016 spent OTP verifications and looked up receivers inside the
-- posting; those are now steps of the send-money use case, and every ledger write (single, pending, post,
-- void, expiry) goes through the new functions. The old signature goes; the routine file makes the new ones.
DROP FUNCTION IF EXISTS ledger_post_batch(
  uuid[], text[], uuid[], uuid[], bigint[], text[], uuid[], uuid[], text[], timestamptz[], text[], bigint, bigint
);
