-- A palm payment's recognised scan names the transfer it paid and the template that matched, so the payer's
-- history can show which palm paid (its palm hash, spec §2.14). Only the payer sees it, and only while that
-- template exists: an erased palm (its template deleted) shows none, a palm registered again is a new one.
-- No foreign key to palm_templates: erasing a template must not touch the events.
ALTER TABLE palm_events ADD COLUMN transfer_id uuid REFERENCES ledger_transfers (id);
ALTER TABLE palm_events ADD COLUMN template_id uuid;
CREATE INDEX palm_events_transfer_idx ON palm_events (transfer_id) WHERE transfer_id IS NOT NULL;
