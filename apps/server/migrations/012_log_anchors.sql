-- Anchors of the verifiable log on an EVM chain (decision 015): each row is one `anchor(root, treeSize)`
-- transaction to the registry contract, stored before it is sent so a crash never loses track of it.
CREATE TABLE tlog_anchors (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The anchored checkpoint: its size and root, as the contract records them.
  tree_size bigint NOT NULL CHECK (tree_size > 0) REFERENCES tlog_checkpoints (tree_size),
  root bytea NOT NULL CHECK (octet_length(root) = 32),
  -- Where: the chain's name (ANCHOR_CHAIN), its EIP-155 id and the registry's lower-case address.
  chain text NOT NULL CHECK (length(chain) BETWEEN 1 AND 100),
  chain_id bigint NOT NULL CHECK (chain_id > 0),
  contract text NOT NULL CHECK (contract ~ '^0x[0-9a-f]{40}$'),
  tx_hash text NOT NULL UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  -- The signed transaction while it is not mined, so it can be sent again after a restart.
  raw_tx text,
  -- sent: signed and stored, maybe broadcast; confirmed: mined and the Anchored event read back;
  -- failed: reverted or replaced, never counted.
  status text NOT NULL CHECK (status IN ('sent', 'confirmed', 'failed')),
  block_number bigint CHECK (block_number >= 0),
  gas_used bigint CHECK (gas_used > 0),
  -- The worker's clock when it signed: the anchoring interval counts from here.
  anchored_at timestamptz NOT NULL,
  settled_at timestamptz,
  CHECK ((status = 'confirmed') = (block_number IS NOT NULL)),
  CHECK ((status = 'sent') = (settled_at IS NULL)),
  CHECK (status = 'sent' OR raw_tx IS NULL)
);
-- One live anchor per size and registry: a second worker's duplicate is refused here too.
CREATE UNIQUE INDEX tlog_anchors_size_idx ON tlog_anchors (chain_id, contract, tree_size) WHERE status <> 'failed';
-- Receipts look up the first confirmed anchor at or after an entry.
CREATE INDEX tlog_anchors_confirmed_idx ON tlog_anchors (tree_size) WHERE status = 'confirmed';

-- An anchor is never removed, and only a sent one is settled (once): what was confirmed stays as it was.
CREATE FUNCTION tlog_anchors_settle_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'tlog_anchors is append-only: DELETE refused' USING ERRCODE = 'raise_exception';
  END IF;
  IF OLD.status <> 'sent'
     OR NEW.tree_size <> OLD.tree_size OR NEW.root <> OLD.root OR NEW.chain <> OLD.chain
     OR NEW.chain_id <> OLD.chain_id OR NEW.contract <> OLD.contract OR NEW.tx_hash <> OLD.tx_hash
     OR NEW.anchored_at <> OLD.anchored_at THEN
    RAISE EXCEPTION 'tlog_anchors: only a sent anchor may be settled, and only its status' USING ERRCODE = 'raise_exception';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER tlog_anchors_settle_only BEFORE UPDATE OR DELETE ON tlog_anchors
  FOR EACH ROW EXECUTE FUNCTION tlog_anchors_settle_only();
