-- Store payment QR codes (the table came with 005): a label for the merchant's own list and the time of the
-- newest scan beside the scan count. The printed code carries `token` as its `qr` id (packages/contracts/src/qr.ts).
ALTER TABLE merchant_qr_codes
  ADD COLUMN label text CHECK (label IS NULL OR char_length(label) BETWEEN 1 AND 60),
  ADD COLUMN last_scanned_at timestamptz,
  ADD CONSTRAINT merchant_qr_codes_token_format CHECK (token ~ '^[A-Za-z0-9_-]{16,64}$'),
  ADD CONSTRAINT merchant_qr_codes_scans_nonnegative CHECK (scans >= 0);
