-- Codes bound to what they approve (issue 23). A transfer code asked for with an amount and a receiver keeps
-- them (the receiver's normalized email or phone), and so does the verification it makes: that verification
-- pays only a transfer of that amount to that receiver. Both null: an unbound code (the seed's client sends
-- neither), which pays one transfer as before.
ALTER TABLE otp_codes ADD COLUMN transfer_amount_paise bigint;
ALTER TABLE otp_codes ADD COLUMN transfer_receiver text;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_transfer_binding_check
  CHECK ((transfer_amount_paise IS NULL) = (transfer_receiver IS NULL) AND (transfer_amount_paise IS NULL OR (purpose = 'transfer' AND transfer_amount_paise > 0)));
ALTER TABLE verifications ADD COLUMN transfer_amount_paise bigint;
ALTER TABLE verifications ADD COLUMN transfer_receiver text;
ALTER TABLE verifications ADD CONSTRAINT verifications_transfer_binding_check
  CHECK ((transfer_amount_paise IS NULL) = (transfer_receiver IS NULL) AND (transfer_amount_paise IS NULL OR (purpose = 'transfer' AND transfer_amount_paise > 0)));
