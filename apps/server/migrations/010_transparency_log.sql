-- The verifiable log (decision 009, packages/tlog): entries, the hash of every complete subtree, and the
-- signed checkpoints. Entries hold no personal data (a pseudonymous subject, a type, a coarse time and a
-- commitment); the record each commitment opens to stays here, encrypted under its user's data key.

-- What happened and is waiting for the log: written in the same transaction as the fact itself.
CREATE TABLE tlog_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('consent.granted', 'consent.withdrawn', 'palm.enrolled', 'palm.erased', 'payment')),
  ref_id uuid NOT NULL,
  -- The subject of a non-payment event (a payment's subject is found from its transfer).
  user_id uuid REFERENCES users (id),
  at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tlog_entries (
  idx bigint PRIMARY KEY CHECK (idx >= 0),
  -- The entry's canonical JSON; its UTF-8 bytes are the leaf.
  entry text NOT NULL,
  -- Hex RFC 6962 leaf hash: the entry's id as people see it (history, receipts).
  leaf_hash text NOT NULL UNIQUE,
  type text NOT NULL,
  ref_id uuid NOT NULL,
  -- Whose data key opens the record; the key, not this id, is what erasure destroys.
  user_id uuid REFERENCES users (id),
  -- AES-256-GCM of {record, salt} under the user's data key: nonce ‖ ciphertext ‖ tag.
  sealed_record bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tlog_entries_ref_idx ON tlog_entries (ref_id);

CREATE TABLE tlog_nodes (
  level int NOT NULL CHECK (level >= 0 AND level < 64),
  idx bigint NOT NULL CHECK (idx >= 0),
  hash bytea NOT NULL CHECK (octet_length(hash) = 32),
  PRIMARY KEY (level, idx)
);

CREATE TABLE tlog_checkpoints (
  tree_size bigint PRIMARY KEY CHECK (tree_size >= 0),
  root bytea NOT NULL CHECK (octet_length(root) = 32),
  note text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Entries, nodes and checkpoints are never changed or removed: a log that could be rewritten proves nothing.
CREATE FUNCTION tlog_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'raise_exception';
END;
$$;
CREATE TRIGGER tlog_entries_append_only BEFORE UPDATE OR DELETE ON tlog_entries
  FOR EACH ROW EXECUTE FUNCTION tlog_append_only();
CREATE TRIGGER tlog_nodes_append_only BEFORE UPDATE OR DELETE ON tlog_nodes
  FOR EACH ROW EXECUTE FUNCTION tlog_append_only();
CREATE TRIGGER tlog_checkpoints_append_only BEFORE UPDATE OR DELETE ON tlog_checkpoints
  FOR EACH ROW EXECUTE FUNCTION tlog_append_only();

-- One data key per user, wrapped under the server's key. Erasure destroys it (crypto-shredding): the
-- user's records become unreadable while every entry and proof stays valid.
CREATE TABLE user_data_keys (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  wrapped_key bytea,
  destroyed_at timestamptz,
  CHECK ((wrapped_key IS NULL) = (destroyed_at IS NOT NULL))
);

-- The log's own keys when none are configured (outside production): made once, kept here.
CREATE TABLE tlog_settings (
  id int PRIMARY KEY CHECK (id = 1),
  signer_key text NOT NULL,
  secret text NOT NULL
);

-- Every ledger transfer goes to the log, whatever path wrote it: one row per statement's transfers.
CREATE FUNCTION ledger_transfers_to_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tlog_outbox (type, ref_id) SELECT 'payment', id FROM new_transfers;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_transfers_to_log AFTER INSERT ON ledger_transfers
  REFERENCING NEW TABLE AS new_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_to_log();
