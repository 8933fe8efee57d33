-- What visitors send from the public site: the waitlist, inquiries, vendor registrations, kiosk hosting.

CREATE TABLE applicants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL,
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  phonenumber text NOT NULL,
  description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE inquiries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email_or_phone text NOT NULL,
  role text NOT NULL CHECK (role IN ('user', 'merchant', 'investor', 'developer')),
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE vendor_registrations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_name text NOT NULL,
  owner_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  address text NOT NULL,
  interests text[] NOT NULL DEFAULT '{}',
  comments text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE kiosk_applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  address text NOT NULL,
  premises text NOT NULL CHECK (premises IN ('School', 'Office', 'Store', 'NGO', 'Other')),
  footfall text NOT NULL,
  power boolean NOT NULL DEFAULT false,
  internet boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
