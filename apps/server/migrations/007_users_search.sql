-- The admin's user directory stays fast at 100,000 users and more: newest-first keyset pages, search by
-- substring (3+ characters, trigram GIN index) or by prefix (1-2 characters, btree text_pattern_ops), and
-- counts bounded by a LIMIT. Admins are never listed.
--
-- pg_trgm ships with PostgreSQL's contrib modules and is a trusted extension (PostgreSQL 13+): a database
-- owner may create it without being a superuser. PGlite loads it in openDatabase().

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Keyset pages: ORDER BY created_at DESC, id DESC, resumed after the last row of the previous page.
CREATE INDEX users_listing_idx ON users (created_at DESC, id DESC) WHERE role <> 'admin';

-- The searchable text of a user: name, email and phone joined by a unit separator (U+001F), which a search
-- may not contain, so no match straddles two fields. The directory's query repeats this exact expression.
-- The search indexes are not partial (the few admins are filtered out after): PostgreSQL keeps statistics
-- for the expressions of full indexes only, and without them it cannot tell a rare search from a common one.
CREATE INDEX users_search_trgm_idx ON users
  USING gin ((username || E'\x1f' || coalesce(email, '') || E'\x1f' || coalesce(phone, '')) gin_trgm_ops);

-- Searches too short for trigrams match the start of the name or the email.
CREATE INDEX users_username_prefix_idx ON users (lower(username) text_pattern_ops);
CREATE INDEX users_email_prefix_idx ON users (email text_pattern_ops);
