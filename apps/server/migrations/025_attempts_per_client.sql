-- No lock-out by strangers, no SMS pumping (issue 23). Failed password and code attempts are counted per
-- (address, client) beside the address's total: `client` is the client's address (an IPv6 one by its /64),
-- null on rows from before. Two more kinds of event: 'sms', one code or notice texted (the hourly SMS
-- budgets per client and overall count them), and 'owner_notice', the owner told of repeated failures (at
-- most one per address per 15 minutes).
ALTER TABLE otp_events ADD COLUMN client text;
ALTER TABLE otp_events DROP CONSTRAINT otp_events_kind_check;
ALTER TABLE otp_events ADD CONSTRAINT otp_events_kind_check
  CHECK (kind IN ('send', 'failure', 'sms', 'owner_notice'));
CREATE INDEX otp_events_client_failures_idx ON otp_events (identifier, client, created_at) WHERE kind = 'failure';
CREATE INDEX otp_events_sms_idx ON otp_events (created_at, client) WHERE kind = 'sms';
