-- Devices (issue 22): kiosks that register palms, store terminals that take palm payments, and a person's own
-- browser. Each holds a device token (only its hash is kept here) and an ECDSA P-256 key whose public half is
-- kept as its JWK. Every palm scan is taken against a single-use challenge of one device that the device
-- signed with the scan's frames; the palm payment or enrolment then records the device.
--
-- Revocation is `revoked_at`: the token, its challenges and its pairing stop at once on every server
-- process, because each use reads this table (no process caches a device).
CREATE TABLE devices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('kiosk', 'terminal', 'personal')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  -- Who paired it: the store's owner, the admin who made the kiosk's code, the person whose browser it is.
  owner_user_id uuid NOT NULL REFERENCES users (id),
  merchant_id uuid REFERENCES merchants (id),
  kiosk_id uuid REFERENCES kiosks (id),
  token_hash text NOT NULL UNIQUE,
  public_key_jwk text NOT NULL CHECK (char_length(public_key_jwk) <= 400),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The last challenge it asked for, written at most once a minute.
  last_seen_at timestamptz,
  revoked_at timestamptz,
  CHECK ((kind = 'terminal') = (merchant_id IS NOT NULL)),
  CHECK ((kind = 'kiosk') = (kiosk_id IS NOT NULL))
);
CREATE INDEX devices_owner_idx ON devices (owner_user_id);
CREATE INDEX devices_merchant_idx ON devices (merchant_id) WHERE merchant_id IS NOT NULL;

-- A pairing code: 8 characters, single use, 10 minutes; only its hash is kept.
CREATE TABLE device_pairing_codes (
  code_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('kiosk', 'terminal')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  created_by uuid NOT NULL REFERENCES users (id),
  merchant_id uuid REFERENCES merchants (id),
  kiosk_id uuid REFERENCES kiosks (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  device_id uuid REFERENCES devices (id),
  CHECK ((kind = 'terminal') = (merchant_id IS NOT NULL)),
  CHECK ((kind = 'kiosk') = (kiosk_id IS NOT NULL))
);
CREATE INDEX device_pairing_codes_expires_idx ON device_pairing_codes (expires_at);

-- A scan challenge: bound to one device, a purpose, an amount and a receiver; lives 60 s and is used once.
-- `idempotency_key` and `frames_sha256` are those of its first use: the same request again (a retry after a
-- lost answer) may pass it once more, and is answered as the same payment.
CREATE TABLE scan_challenges (
  nonce text PRIMARY KEY CHECK (char_length(nonce) <= 100),
  device_id uuid NOT NULL REFERENCES devices (id),
  purpose text NOT NULL CHECK (purpose IN ('enrol', 'pay', 'receive')),
  amount_paise bigint CHECK (amount_paise > 0),
  receiver text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  idempotency_key text,
  frames_sha256 text
);
CREATE INDEX scan_challenges_device_idx ON scan_challenges (device_id, expires_at);

-- Where each palm payment and enrolment was taken.
ALTER TABLE palm_payments ADD COLUMN device_id uuid REFERENCES devices (id);
CREATE INDEX palm_payments_device_idx ON palm_payments (device_id, created_at) WHERE device_id IS NOT NULL;
ALTER TABLE palm_templates ADD COLUMN device_id uuid REFERENCES devices (id);
CREATE INDEX palm_templates_device_idx ON palm_templates (device_id) WHERE device_id IS NOT NULL;
ALTER TABLE palm_enrolment_requests ADD COLUMN device_id uuid REFERENCES devices (id);
