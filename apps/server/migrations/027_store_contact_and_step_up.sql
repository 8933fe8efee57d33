-- A store's contact shown to payers is one the store proved it receives (issue 23, item 7). contact_email and
-- contact_phone stay what the owner typed in the settings; verified_contact_email / verified_contact_phone
-- are the last of them whose code came back (or the owner's own sign-in address, already proven), and only
-- those reach payers and store notices. A contact the owner changes waits for the code sent to it
-- (one-time code purpose 'store_contact', bound to the session that saved it).
ALTER TABLE merchants ADD COLUMN verified_contact_email text;
ALTER TABLE merchants ADD COLUMN verified_contact_phone text;
UPDATE merchants m SET verified_contact_email = m.contact_email
  FROM users u WHERE u.id = m.owner_user_id AND m.contact_email = u.email;
UPDATE merchants m SET verified_contact_phone = m.contact_phone
  FROM users u WHERE u.id = m.owner_user_id AND m.contact_phone = u.phone;

-- Adding a bank account and asking for a withdrawal need the owner's fresh step-up, as a palm enrolment does
-- (migration 024): purposes 'store_bank_account' and 'store_withdrawal' of the same codes and step-ups.
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check
  CHECK (purpose IN ('login', 'registration', 'transfer', 'password_reset', 'palm_enrol', 'palm_unfreeze',
                     'store_contact', 'store_bank_account', 'store_withdrawal'));
ALTER TABLE otp_events DROP CONSTRAINT otp_events_purpose_check;
ALTER TABLE otp_events ADD CONSTRAINT otp_events_purpose_check
  CHECK (purpose IS NULL OR purpose IN
    ('login', 'registration', 'transfer', 'password_reset', 'palm_enrol', 'palm_unfreeze', 'palm_enrol_request',
     'store_contact', 'store_bank_account', 'store_withdrawal'));
ALTER TABLE palm_step_ups DROP CONSTRAINT palm_step_ups_purpose_check;
ALTER TABLE palm_step_ups ADD CONSTRAINT palm_step_ups_purpose_check
  CHECK (purpose IN ('palm_enrol', 'palm_unfreeze', 'store_bank_account', 'store_withdrawal'));
