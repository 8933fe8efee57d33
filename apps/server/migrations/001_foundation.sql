-- Foundation: people, merchants, kiosks and the dev outbox.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text,
  phone text,
  username text NOT NULL CHECK (char_length(username) BETWEEN 2 AND 100),
  password_hash text,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'merchant', 'admin')),
  must_change_password boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (email IS NOT NULL OR phone IS NOT NULL),
  CHECK (email IS NULL OR email = lower(email)),
  CHECK (phone IS NULL OR phone ~ '^\+[0-9]{7,15}$')
);
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX users_phone_key ON users (phone) WHERE phone IS NOT NULL;
CREATE INDEX users_role_created_idx ON users (role, created_at);

CREATE TABLE merchants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_user_id uuid NOT NULL UNIQUE REFERENCES users (id),
  store_name text NOT NULL CHECK (char_length(store_name) BETWEEN 1 AND 200),
  contact_email text,
  contact_phone text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE kiosks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  address text NOT NULL,
  city text NOT NULL,
  pincode text NOT NULL CHECK (pincode ~ '^[1-9][0-9]{5}$'),
  status text NOT NULL,
  type text NOT NULL,
  hours text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name, pincode)
);

CREATE TABLE outbox_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  to_address text NOT NULL,
  subject text,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_messages_to_idx ON outbox_messages (to_address, id DESC);
