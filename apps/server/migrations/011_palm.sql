-- Palm biometrics (decision 014): protected templates only, encrypted at rest; consent per hand; the events
-- a person sees in their history and consent tab, each also queued for the verifiable log.

-- One protected template per registered hand. `sealed_template` is AES-256-GCM (under a key derived from
-- PALM_KEY) of the Index-of-Max template, never the camera picture nor the unprotected palm code.
CREATE TABLE palm_templates (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  hand text NOT NULL CHECK (hand IN ('left', 'right')),
  -- Which template key made it (hex of the keyed key id): templates of a retired key are re-made on use.
  key_id text NOT NULL,
  sealed_template bytea NOT NULL,
  -- SHA-256 of the protected template: the palm_hash people see.
  palm_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, hand)
);

-- Consent to palm processing, per hand: granted at registration (or given again), withdrawn by the person.
CREATE TABLE palm_consents (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  hand text NOT NULL CHECK (hand IN ('left', 'right')),
  granted_at timestamptz NOT NULL DEFAULT now(),
  withdrawn_at timestamptz,
  CHECK (withdrawn_at IS NULL OR withdrawn_at >= granted_at)
);
-- At most one live consent per hand.
CREATE UNIQUE INDEX palm_consents_live_idx ON palm_consents (user_id, hand) WHERE withdrawn_at IS NULL;

-- What happened to a person's palm data, newest first in their history; the id is the log entry's ref_id.
CREATE TABLE palm_events (
  id uuid PRIMARY KEY,
  -- Order of writing (events of one transaction share a timestamp).
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id),
  type text NOT NULL CHECK (type IN ('consent.granted', 'consent.withdrawn', 'palm.enrolled', 'palm.erased', 'palm.scan')),
  hand text CHECK (hand IN ('left', 'right')),
  -- palm.scan: whether this person's palm was recognised for a payment, and how closely (0..100).
  status text,
  similarity real,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX palm_events_user_idx ON palm_events (user_id, seq DESC);

-- The template key when PALM_KEY is not configured (outside production): made once, kept here.
CREATE TABLE palm_settings (
  id int PRIMARY KEY CHECK (id = 1),
  template_key text NOT NULL
);
