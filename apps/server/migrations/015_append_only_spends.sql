-- Spending a verification appends a row instead of updating one, and the account counters are updated in place
-- (decision 019). Under load a spend that set verifications.consumed_at left a dead row and new index entries
-- behind (the partial index on consumed_at made every such update non-HOT), and the counter updates moved
-- rows off their full pages; autovacuum is not there to clean up in time, and latency grew with the litter.

-- A verification is spent once it has a row here: insert-only, its primary key makes the spend single-use.
CREATE TABLE verification_spends (
  verification_id uuid PRIMARY KEY REFERENCES verifications (id) ON DELETE CASCADE,
  spent_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO verification_spends (verification_id, spent_at)
SELECT id, consumed_at FROM verifications WHERE consumed_at IS NOT NULL;

-- The newest verifications of a session, spent or not (spends are few per session: one per transfer).
DROP INDEX verifications_unspent_session_idx;
CREATE INDEX verifications_session_idx
  ON verifications (session_id, purpose, created_at DESC)
  WHERE session_id IS NOT NULL;
ALTER TABLE verifications DROP COLUMN consumed_at;

-- Every transfer rewrites two rows of ledger_accounts, and none of the columns it writes is indexed: with
-- room left on each page the new version stays on the page (a HOT update, no index entry) and the old one is
-- pruned by the next reader, without waiting for VACUUM. The room applies to pages written from now on; rows
-- of older, full pages move to such pages on their next non-HOT update. VACUUM still comes early for this
-- small, busy table, for its visibility map and so that pruned line pointers are reused.
ALTER TABLE ledger_accounts SET (
  fillfactor = 50,
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 1000,
  autovacuum_analyze_scale_factor = 0.05
);

-- ledger_post_batch as in migration 014, except step 3: the spend is an insert into verification_spends.
CREATE OR REPLACE FUNCTION ledger_post_batch(
  p_ids uuid[],
  p_request_hashes text[],
  p_debits uuid[],
  p_credits uuid[],
  p_amounts bigint[],
  p_kinds text[],
  p_initiated_by uuid[],
  p_sessions uuid[],
  p_purposes text[],
  p_created_after timestamptz[],
  p_receivers text[],
  p_min_amount_paise bigint,
  p_max_balance_paise bigint
) RETURNS TABLE (n int, outcome text, seq bigint, created_at timestamptz)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_count int := cardinality(p_ids);
  v_claimed uuid[];
  v_moved uuid[] := '{}';
  v_spent uuid[];
  v_account_ids uuid[];
  v_kinds text[];
  v_dp bigint[];
  v_cp bigint[];
  v_dq bigint[];
  v_cq bigint[];
  v_changed boolean[];
  v_outcomes text[];
  v_refused_ids uuid[] := '{}';
  v_refused_codes text[] := '{}';
  v_given_back uuid[] := '{}';
  v_accepted int[] := '{}';
  v_code text;
  v_debit int;
  v_credit int;
  v_amount bigint;
BEGIN
  -- The batcher's outcomes are those of READ COMMITTED: say so rather than trust the session's default.
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'ledger_post_batch runs under READ COMMITTED, not %', current_setting('transaction_isolation');
  END IF;
  IF v_count IS NULL OR v_count = 0 THEN
    RETURN;
  END IF;
  IF cardinality(p_request_hashes) <> v_count OR cardinality(p_debits) <> v_count
    OR cardinality(p_credits) <> v_count OR cardinality(p_amounts) <> v_count
    OR cardinality(p_kinds) <> v_count OR cardinality(p_initiated_by) <> v_count
    OR cardinality(p_sessions) <> v_count OR cardinality(p_purposes) <> v_count
    OR cardinality(p_created_after) <> v_count OR cardinality(p_receivers) <> v_count THEN
    RAISE EXCEPTION 'ledger_post_batch: the arrays differ in length';
  END IF;
  v_outcomes := array_fill(NULL::text, ARRAY[v_count]);

  -- 1. Claim the ids. An id claimed before (or being written right now: the insert waits for it) is a replay.
  WITH claimed AS (
    INSERT INTO ledger_requests (id, request_hash)
    SELECT * FROM unnest(p_ids, p_request_hashes)
    ON CONFLICT (id) DO NOTHING
    RETURNING id
  )
  SELECT coalesce(array_agg(id), '{}') INTO v_claimed FROM claimed;

  -- 2. A transfer addressed to an email or phone (its receiver may come from the caller's cache) goes only to
  -- the account that address names now: the owner's store when they are a merchant with one, else their own.
  IF cardinality(array_remove(p_receivers, NULL)) > 0 THEN
    SELECT coalesce(array_agg(w.transfer_id), '{}') INTO v_moved
    FROM unnest(p_ids, p_receivers, p_credits) AS w(transfer_id, receiver, credit)
    WHERE w.receiver IS NOT NULL AND w.transfer_id = ANY(v_claimed)
      AND w.credit IS DISTINCT FROM (
        SELECT CASE WHEN m.id IS NULL THEN ua.id ELSE ma.id END
        FROM users u
        LEFT JOIN merchants m ON u.role = 'merchant' AND m.owner_user_id = u.id
        LEFT JOIN ledger_accounts ma ON ma.merchant_id = m.id
        LEFT JOIN ledger_accounts ua ON ua.user_id = u.id
        WHERE u.email = w.receiver OR u.phone = w.receiver
        LIMIT 1);
  END IF;

  -- 3. Spend the newest unspent, unexpired verification of each claimed transfer's session (sessions are
  -- distinct within a batch), provided the session is live and its user has no password change pending.
  -- Spending inserts the verification's id: a spend made at the same time by another transaction makes this
  -- insert wait for it, then do nothing if it committed, so a verification is spent once.
  WITH wanted AS (
    SELECT w.session_id, w.purpose, w.created_after
    FROM unnest(p_ids, p_sessions, p_purposes, p_created_after) AS w(transfer_id, session_id, purpose, created_after)
    WHERE w.session_id IS NOT NULL AND w.transfer_id = ANY(v_claimed) AND NOT (w.transfer_id = ANY(v_moved))
  ), chosen AS (
    SELECT DISTINCT ON (w.session_id) c.id, w.session_id
    FROM wanted w
    JOIN sessions s ON s.id = w.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
    JOIN users u ON u.id = s.user_id AND NOT u.must_change_password
    CROSS JOIN LATERAL (
      SELECT v.id, v.created_at
      FROM verifications v
      WHERE v.session_id = w.session_id AND v.purpose = w.purpose AND v.created_at > w.created_after
        AND NOT EXISTS (SELECT 1 FROM verification_spends x WHERE x.verification_id = v.id)
      ORDER BY v.created_at DESC
      LIMIT 1
    ) AS c
    ORDER BY w.session_id, c.created_at DESC
  ), spent AS (
    INSERT INTO verification_spends (verification_id)
    SELECT id FROM chosen
    ON CONFLICT (verification_id) DO NOTHING
    RETURNING verification_id
  )
  SELECT coalesce(array_agg(chosen.session_id), '{}') INTO v_spent
  FROM spent JOIN chosen ON chosen.id = spent.verification_id;

  -- 4. Lock every account the batch names, in one global order.
  SELECT coalesce(array_agg(a.id ORDER BY a.id), '{}'), array_agg(a.kind ORDER BY a.id),
         array_agg(a.debits_posted ORDER BY a.id), array_agg(a.credits_posted ORDER BY a.id),
         array_agg(a.debits_pending ORDER BY a.id), array_agg(a.credits_pending ORDER BY a.id)
  INTO v_account_ids, v_kinds, v_dp, v_cp, v_dq, v_cq
  FROM (
    SELECT * FROM ledger_accounts WHERE id = ANY(p_debits || p_credits) ORDER BY id FOR UPDATE
  ) AS a;
  v_changed := array_fill(false, ARRAY[greatest(cardinality(v_account_ids), 1)]);

  -- 5. The rules, in arrival order (checkTransfer, then applyTransfer for a single-phase transfer).
  FOR i IN 1 .. v_count LOOP
    IF NOT (p_ids[i] = ANY(v_claimed)) THEN
      v_outcomes[i] := 'replay';
      CONTINUE;
    END IF;
    IF p_ids[i] = ANY(v_moved) THEN
      v_outcomes[i] := 'receiver_changed';
      v_given_back := v_given_back || p_ids[i];
      CONTINUE;
    END IF;
    IF p_sessions[i] IS NOT NULL AND NOT (p_sessions[i] = ANY(v_spent)) THEN
      v_outcomes[i] := 'verification_missing';
      v_given_back := v_given_back || p_ids[i];
      CONTINUE;
    END IF;
    v_amount := p_amounts[i];
    v_debit := array_position(v_account_ids, p_debits[i]);
    v_credit := array_position(v_account_ids, p_credits[i]);
    v_code := NULL;
    IF v_amount < p_min_amount_paise THEN
      v_code := 'amount_invalid';
    ELSIF v_debit IS NULL OR v_credit IS NULL THEN
      v_code := CASE WHEN p_debits[i] = p_credits[i] THEN 'same_account' ELSE 'account_not_found' END;
    ELSIF v_debit = v_credit THEN
      v_code := 'same_account';
    ELSIF v_kinds[v_debit] <> 'system' AND v_cp[v_debit] - v_dp[v_debit] - v_dq[v_debit] < v_amount THEN
      v_code := 'insufficient_funds';
    ELSIF v_kinds[v_credit] <> 'system'
      AND v_cp[v_credit] - v_dp[v_credit] + v_cq[v_credit] + v_amount > p_max_balance_paise THEN
      v_code := 'balance_limit_exceeded';
    END IF;
    IF v_code IS NOT NULL THEN
      v_outcomes[i] := v_code;
      v_refused_ids := v_refused_ids || p_ids[i];
      v_refused_codes := v_refused_codes || v_code;
      CONTINUE;
    END IF;
    v_dp[v_debit] := v_dp[v_debit] + v_amount;
    v_cp[v_credit] := v_cp[v_credit] + v_amount;
    v_changed[v_debit] := true;
    v_changed[v_credit] := true;
    v_outcomes[i] := 'ok';
    v_accepted := v_accepted || i;
  END LOOP;

  -- 6. The counters, the refusals, the ids given back, and the transfers (their seq in arrival order).
  UPDATE ledger_accounts AS a
  SET debits_posted = v.dp, credits_posted = v.cp
  FROM unnest(v_account_ids, v_dp, v_cp, v_changed) AS v(id, dp, cp, changed)
  WHERE a.id = v.id AND v.changed;
  UPDATE ledger_requests AS r SET error_code = v.code
  FROM unnest(v_refused_ids, v_refused_codes) AS v(id, code)
  WHERE r.id = v.id;
  DELETE FROM ledger_requests WHERE id = ANY(v_given_back);
  RETURN QUERY
    WITH written AS (
      INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount_paise, kind, phase, initiated_by)
      SELECT p_ids[a.i], p_debits[a.i], p_credits[a.i], p_amounts[a.i], p_kinds[a.i], 'single', p_initiated_by[a.i]
      FROM unnest(v_accepted) WITH ORDINALITY AS a(i, k)
      ORDER BY a.k
      RETURNING id, seq, created_at
    )
    SELECT o.k::int, o.outcome, w.seq, w.created_at
    FROM unnest(v_outcomes) WITH ORDINALITY AS o(outcome, k)
    LEFT JOIN written w ON o.outcome = 'ok' AND w.id = p_ids[o.k];
END;
$$;
