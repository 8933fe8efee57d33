-- Several server processes on one PostgreSQL (issue 25): what each keeps in memory (the palm gallery, the
-- session cache) follows the database through this change feed. Triggers write one row per change in the
-- changing transaction itself, so no code path can change a palm or a session without it, and
-- `pg_notify('replica_changes')` wakes the other processes when it commits (notices go out only on commit).
--
-- A reader does not trust `seq` to arrive in order (a transaction that took a lower number may commit after
-- one that took a higher): it reads every row of a transaction not finished at its previous read, by `xid`
-- against that read's snapshot xmin (change-repository.ts), and handles each change idempotently.
--
-- kind 'palm': a template or a consent of `user_id` changed (enrolment, withdrawal, restore, erasure, a
-- template re-made under the current key). kind 'session': a session of `user_id` ended (sign-out, revoked,
-- password changed or reset), or what a cached session says of its user (role, pending password change).
CREATE TABLE replica_changes (
  seq bigserial PRIMARY KEY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  kind text NOT NULL CHECK (kind IN ('palm', 'session')),
  user_id uuid NOT NULL,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX replica_changes_xid ON replica_changes (xid);

CREATE FUNCTION replica_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO replica_changes (kind, user_id)
  VALUES (TG_ARGV[0], CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END);
  PERFORM pg_notify('replica_changes', '');
  RETURN NULL;
END $$;

CREATE FUNCTION replica_change_of_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO replica_changes (kind, user_id) VALUES (TG_ARGV[0], NEW.id);
  PERFORM pg_notify('replica_changes', '');
  RETURN NULL;
END $$;

CREATE TRIGGER replica_change AFTER INSERT OR DELETE OR UPDATE OF key_id, sealed_template
  ON palm_templates FOR EACH ROW EXECUTE FUNCTION replica_change('palm');
CREATE TRIGGER replica_change AFTER INSERT OR DELETE OR UPDATE OF withdrawn_at
  ON palm_consents FOR EACH ROW EXECUTE FUNCTION replica_change('palm');
-- A new session is in no cache; only its end is news (last_seen_at moves every minute and is not).
CREATE TRIGGER replica_change_revoked AFTER UPDATE OF revoked_at ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION replica_change('session');
CREATE TRIGGER replica_change_deleted AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION replica_change('session');
CREATE TRIGGER replica_change AFTER UPDATE OF role, must_change_password ON users FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.must_change_password IS DISTINCT FROM NEW.must_change_password)
  EXECUTE FUNCTION replica_change_of_user('session');
