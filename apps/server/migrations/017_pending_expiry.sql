-- Two-phase transfers time out: a pending transfer neither posted nor voided by its timeout_at is voided by
-- the server's expiry round (src/ledger/pending-expiry.ts), which finds them through this index.
CREATE INDEX ledger_transfers_pending_timeout_idx ON ledger_transfers (timeout_at)
  WHERE phase = 'pending' AND timeout_at IS NOT NULL;

-- A withdrawal nobody settled or rejected before its timeout is voided: its amount is back in the store.
ALTER TABLE merchant_payouts DROP CONSTRAINT merchant_payouts_status_check;
ALTER TABLE merchant_payouts ADD CONSTRAINT merchant_payouts_status_check
  CHECK (status IN ('pending', 'settled', 'rejected', 'expired'));
