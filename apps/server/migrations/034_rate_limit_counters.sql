-- The request limits every server process shares (decision 048): the palm calls' limits (per client, session,
-- account and device, and the scan challenges'), the sign-in's per-client limit, the public posts' ("Not me"
-- links, the site's forms) and the passkeys'. Each process counted them in its own memory before, so two
-- processes behind the load balancer let a client make twice every limit. The API's overall per-client limit
-- stays in each process's memory: it sheds load, which each process carries for itself.
--
-- One row per limit and key, a fixed window as @fastify/rate-limit's own store counts it: the hits since
-- `window_started_at`, starting again at 1 once `window_ms` has passed. The key (a client's address, a
-- session's or an account's id, a device token's hash) is kept only as its SHA-256. Rows past their window
-- are deleted as counting goes on.
CREATE TABLE rate_limit_counters (
  counter text NOT NULL CHECK (char_length(counter) BETWEEN 1 AND 200),
  key_hash text NOT NULL,
  window_started_at timestamptz NOT NULL,
  window_ms integer NOT NULL CHECK (window_ms > 0),
  hits integer NOT NULL CHECK (hits > 0),
  PRIMARY KEY (counter, key_hash)
);
