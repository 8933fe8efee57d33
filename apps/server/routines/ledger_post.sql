-- The ledger's rules, once: every write to the ledger goes through these functions, whoever makes it (a
-- batch of transfers from the group-commit path, one transfer, a pending transfer, its post or void, the
-- expiry round's void). The migrator applies this file with CREATE OR REPLACE whenever its text changes
-- (src/db/migrate.ts, table schema_routines), after the numbered migrations and under their lock. A change of
-- a function's arguments or result columns needs a numbered migration that drops the old signature first.
--
-- A write is two steps in one READ COMMITTED transaction, with whatever the caller must do between them
-- (spend a verification, check a receiver, mark a withdrawal) in the same transaction:
--   1. ledger_claim: claim the request ids; an id used before answers what it answered then.
--   2. ledger_post_batch: the rules over the claimed ids, in arrival order, and the writes.
-- ledger_give_back frees claimed ids the caller decided not to post (nothing is written for them).
-- packages/ledger/src/rules.ts and reference-model.ts are the model the property tests hold these to.

-- 1. Claims the ids, in one statement. An id claimed before, or being claimed right now by another
-- transaction (the insert waits for it to end), answers what it answered then: 'id_reused' for another
-- request body, its stored refusal, or its stored transfer ('replay', with the transfer's columns).
CREATE OR REPLACE FUNCTION ledger_claim(p_ids uuid[], p_request_hashes text[])
RETURNS TABLE (
  n int,
  outcome text,
  seq bigint,
  debit_account_id uuid,
  credit_account_id uuid,
  amount_paise bigint,
  kind text,
  phase text,
  pending_id uuid,
  timeout_at timestamptz,
  reverses_id uuid,
  initiated_by uuid,
  created_at timestamptz
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_claimed uuid[];
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'ledger_claim runs under READ COMMITTED, not %', current_setting('transaction_isolation');
  END IF;
  IF cardinality(p_request_hashes) IS DISTINCT FROM cardinality(p_ids) THEN
    RAISE EXCEPTION 'ledger_claim: the arrays differ in length';
  END IF;
  WITH claimed AS (
    INSERT INTO ledger_requests (id, request_hash)
    SELECT * FROM unnest(p_ids, p_request_hashes)
    ON CONFLICT (id) DO NOTHING
    RETURNING id
  )
  SELECT coalesce(array_agg(id), '{}') INTO v_claimed FROM claimed;
  IF cardinality(v_claimed) = cardinality(p_ids) THEN
    RETURN QUERY
      SELECT w.k::int, 'claimed', NULL::bigint, NULL::uuid, NULL::uuid, NULL::bigint, NULL::text, NULL::text,
             NULL::uuid, NULL::timestamptz, NULL::uuid, NULL::uuid, NULL::timestamptz
      FROM generate_series(1, cardinality(p_ids)) AS w(k);
    RETURN;
  END IF;
  -- A new statement, so a new snapshot: it sees what the transactions the insert waited for wrote.
  RETURN QUERY
    SELECT w.k::int,
           CASE WHEN w.id = ANY(v_claimed) THEN 'claimed'
                WHEN r.id IS NULL THEN 'given_back'
                WHEN r.request_hash <> w.request_hash THEN 'id_reused'
                WHEN r.error_code IS NOT NULL THEN r.error_code
                WHEN t.id IS NULL THEN 'given_back'
                ELSE 'replay' END,
           t.seq, t.debit_account_id, t.credit_account_id, t.amount_paise, t.kind, t.phase, t.pending_id,
           t.timeout_at, t.reverses_id, t.initiated_by, t.created_at
    FROM unnest(p_ids, p_request_hashes) WITH ORDINALITY AS w(id, request_hash, k)
    LEFT JOIN ledger_requests r ON r.id = w.id AND NOT (w.id = ANY(v_claimed))
    LEFT JOIN ledger_transfers t ON t.id = r.id
    ORDER BY w.k;
END;
$$;

-- Frees ids this transaction claimed and will not post: a later request may use them afresh.
CREATE OR REPLACE FUNCTION ledger_give_back(p_ids uuid[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ledger_requests r
  WHERE r.id = ANY(p_ids) AND r.error_code IS NULL
    AND NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = r.id);
END;
$$;

-- 2. Posts transfers whose ids this transaction claimed, in arrival order, in one statement. The caller posts
-- only ids it claimed and did not give back; the keys hold it to that (a transfer's id references its claim,
-- and is written once). Each is
-- 'single' or 'pending' (debit, credit, amount, kind; a pending one its timeout in ms from p_now), or 'post' or
-- 'void' of a pending transfer (p_pending_ids; its accounts, amount and kind are the pending transfer's). It
-- locks every account involved in one global order (by id, FOR UPDATE), applies the rules, and writes the
-- counters, the transfers and the refusals (stored against their ids, so a refused id stays refused).
-- p_now is the caller's clock: it sets the timeouts and decides whether a pending transfer has expired.
CREATE OR REPLACE FUNCTION ledger_post_batch(
  p_ids uuid[],
  p_phases text[],
  p_debits uuid[],
  p_credits uuid[],
  p_amounts bigint[],
  p_kinds text[],
  p_timeout_ms bigint[],
  p_pending_ids uuid[],
  p_reverses_ids uuid[],
  p_initiated_by uuid[],
  p_min_amount_paise bigint,
  p_max_balance_paise bigint,
  p_now timestamptz
) RETURNS TABLE (
  n int,
  outcome text,
  seq bigint,
  debit_account_id uuid,
  credit_account_id uuid,
  amount_paise bigint,
  kind text,
  timeout_at timestamptz,
  created_at timestamptz
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_count int := cardinality(p_ids);
  v_debits uuid[] := p_debits;
  v_credits uuid[] := p_credits;
  v_amounts bigint[] := p_amounts;
  v_kinds text[] := p_kinds;
  v_pending_timeouts timestamptz[];
  v_pending record;
  v_resolved uuid[] := '{}';
  v_has_resolutions boolean;
  v_account_ids uuid[];
  v_account_kinds text[];
  v_account_assets text[];
  v_dp bigint[];
  v_cp bigint[];
  v_dq bigint[];
  v_cq bigint[];
  v_changed boolean[];
  v_outcomes text[];
  v_refused_ids uuid[] := '{}';
  v_refused_codes text[] := '{}';
  v_accepted int[] := '{}';
  v_phase text;
  v_code text;
  v_debit int;
  v_credit int;
  v_amount bigint;
  v_min bigint;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'ledger_post_batch runs under READ COMMITTED, not %', current_setting('transaction_isolation');
  END IF;
  IF v_count IS NULL OR v_count = 0 THEN
    RETURN;
  END IF;
  IF cardinality(p_phases) <> v_count OR cardinality(p_debits) <> v_count
    OR cardinality(p_credits) <> v_count OR cardinality(p_amounts) <> v_count
    OR cardinality(p_kinds) <> v_count OR cardinality(p_timeout_ms) <> v_count
    OR cardinality(p_pending_ids) <> v_count OR cardinality(p_reverses_ids) <> v_count
    OR cardinality(p_initiated_by) <> v_count OR p_now IS NULL THEN
    RAISE EXCEPTION 'ledger_post_batch: the arrays differ in length';
  END IF;
  v_has_resolutions := 'post' = ANY(p_phases) OR 'void' = ANY(p_phases);
  v_outcomes := array_fill(NULL::text, ARRAY[v_count]);
  v_pending_timeouts := array_fill(NULL::timestamptz, ARRAY[v_count]);

  -- A post or void takes its accounts, amount and kind from the pending transfer it names.
  IF v_has_resolutions THEN
    FOR i IN 1 .. v_count LOOP
      IF p_phases[i] IN ('post', 'void') THEN
        SELECT t.* INTO v_pending
        FROM ledger_transfers t
        WHERE t.id = p_pending_ids[i] AND t.phase = 'pending';
        IF FOUND THEN
          v_debits[i] := v_pending.debit_account_id;
          v_credits[i] := v_pending.credit_account_id;
          v_amounts[i] := v_pending.amount_paise;
          v_kinds[i] := v_pending.kind;
          v_pending_timeouts[i] := v_pending.timeout_at;
        ELSE
          v_debits[i] := NULL;
          v_credits[i] := NULL;
          v_amounts[i] := NULL;
          v_kinds[i] := NULL;
        END IF;
      END IF;
    END LOOP;
  END IF;

  -- Lock every account the batch names, in one global order (by id), so two writers never wait on each
  -- other in a cycle.
  SELECT coalesce(array_agg(a.id ORDER BY a.id), '{}'), array_agg(a.kind ORDER BY a.id),
         array_agg(a.asset ORDER BY a.id), array_agg(a.debits_posted ORDER BY a.id), array_agg(a.credits_posted ORDER BY a.id),
         array_agg(a.debits_pending ORDER BY a.id), array_agg(a.credits_pending ORDER BY a.id)
  INTO v_account_ids, v_account_kinds, v_account_assets, v_dp, v_cp, v_dq, v_cq
  FROM (
    SELECT * FROM ledger_accounts WHERE id = ANY(v_debits || v_credits) ORDER BY id FOR UPDATE
  ) AS a;
  v_changed := array_fill(false, ARRAY[greatest(cardinality(v_account_ids), 1)]);

  -- Pending transfers already posted or voided (seen now that their accounts are locked).
  IF v_has_resolutions THEN
    SELECT coalesce(array_agg(t.pending_id), '{}') INTO v_resolved
    FROM ledger_transfers t
    WHERE t.pending_id = ANY(p_pending_ids);
  END IF;

  -- The rules, in arrival order.
  FOR i IN 1 .. v_count LOOP
    v_phase := p_phases[i];
    v_amount := v_amounts[i];
    v_debit := array_position(v_account_ids, v_debits[i]);
    v_credit := array_position(v_account_ids, v_credits[i]);
    v_code := NULL;
    IF v_phase IN ('post', 'void') THEN
      -- Posting after the timeout is refused; voiding is always allowed, once.
      IF v_amount IS NULL THEN
        v_code := 'pending_not_found';
      ELSIF p_pending_ids[i] = ANY(v_resolved) THEN
        v_code := 'pending_resolved';
      ELSIF v_phase = 'post' AND v_pending_timeouts[i] IS NOT NULL AND v_pending_timeouts[i] <= p_now THEN
        v_code := 'pending_expired';
      END IF;
    ELSIF v_phase IN ('single', 'pending') THEN
      -- The rupee limits (minimum amount, balance ceiling) are for rupees; points move in whole points from 1.
      v_min := p_min_amount_paise;
      IF v_debit IS NOT NULL AND v_account_assets[v_debit] = 'points' THEN
        v_min := 1;
      END IF;
      IF v_amount IS NULL OR v_amount < v_min THEN
        v_code := 'amount_invalid';
      ELSIF v_debit IS NULL OR v_credit IS NULL THEN
        v_code := CASE WHEN v_debits[i] = v_credits[i] THEN 'same_account' ELSE 'account_not_found' END;
      ELSIF v_debit = v_credit THEN
        v_code := 'same_account';
      ELSIF v_account_assets[v_debit] <> v_account_assets[v_credit] THEN
        v_code := 'asset_mismatch';
      ELSIF v_account_kinds[v_debit] <> 'system'
        AND v_cp[v_debit] - v_dp[v_debit] - v_dq[v_debit] < v_amount THEN
        v_code := 'insufficient_funds';
      ELSIF v_account_kinds[v_credit] <> 'system' AND v_account_assets[v_credit] = 'inr'
        AND v_cp[v_credit] - v_dp[v_credit] + v_cq[v_credit] + v_amount > p_max_balance_paise THEN
        v_code := 'balance_limit_exceeded';
      END IF;
    ELSE
      RAISE EXCEPTION 'ledger_post_batch: unknown phase %', v_phase;
    END IF;
    IF v_code IS NOT NULL THEN
      v_outcomes[i] := v_code;
      v_refused_ids := v_refused_ids || p_ids[i];
      v_refused_codes := v_refused_codes || v_code;
      CONTINUE;
    END IF;
    -- The effect on the counters: a single transfer posts, a pending one reserves, a post or void releases
    -- the reservation and a post then posts it.
    IF v_phase IN ('pending', 'post', 'void') THEN
      v_dq[v_debit] := v_dq[v_debit] + CASE WHEN v_phase = 'pending' THEN v_amount ELSE -v_amount END;
      v_cq[v_credit] := v_cq[v_credit] + CASE WHEN v_phase = 'pending' THEN v_amount ELSE -v_amount END;
    END IF;
    IF v_phase IN ('single', 'post') THEN
      v_dp[v_debit] := v_dp[v_debit] + v_amount;
      v_cp[v_credit] := v_cp[v_credit] + v_amount;
    END IF;
    IF v_phase IN ('post', 'void') THEN
      v_resolved := v_resolved || p_pending_ids[i];
    END IF;
    v_changed[v_debit] := true;
    v_changed[v_credit] := true;
    v_outcomes[i] := 'ok';
    v_accepted := v_accepted || i;
  END LOOP;

  -- The counters, the refusals, and the transfers (their seq in arrival order).
  UPDATE ledger_accounts AS a
  SET debits_posted = v.dp, credits_posted = v.cp, debits_pending = v.dq, credits_pending = v.cq
  FROM unnest(v_account_ids, v_dp, v_cp, v_dq, v_cq, v_changed) AS v(id, dp, cp, dq, cq, changed)
  WHERE a.id = v.id AND v.changed;
  IF cardinality(v_refused_ids) > 0 THEN
    UPDATE ledger_requests AS r SET error_code = v.code
    FROM unnest(v_refused_ids, v_refused_codes) AS v(id, code)
    WHERE r.id = v.id;
  END IF;
  RETURN QUERY
    WITH written AS (
      INSERT INTO ledger_transfers (
        id, debit_account_id, credit_account_id, amount_paise, kind, phase, pending_id, timeout_at,
        reverses_id, initiated_by)
      SELECT p_ids[a.i], v_debits[a.i], v_credits[a.i], v_amounts[a.i], v_kinds[a.i], p_phases[a.i],
             CASE WHEN p_phases[a.i] IN ('post', 'void') THEN p_pending_ids[a.i] END,
             CASE WHEN p_phases[a.i] = 'pending'
                  THEN p_now + p_timeout_ms[a.i] * interval '1 millisecond' END,
             p_reverses_ids[a.i], p_initiated_by[a.i]
      FROM unnest(v_accepted) WITH ORDINALITY AS a(i, k)
      ORDER BY a.k
      RETURNING id, seq, debit_account_id, credit_account_id, amount_paise, kind, timeout_at, created_at
    )
    SELECT o.k::int, o.outcome, w.seq, w.debit_account_id, w.credit_account_id, w.amount_paise, w.kind,
           w.timeout_at, w.created_at
    FROM unnest(v_outcomes) WITH ORDINALITY AS o(outcome, k)
    LEFT JOIN written w ON o.outcome = 'ok' AND w.id = p_ids[o.k]
    ORDER BY o.k;
END;
$$;

-- Their statements run on plans made once (decision 019, migration 016): under the default plan cache mode
-- PostgreSQL planned most of them again on every call, about half the cost of a batch of one on PGlite.
ALTER FUNCTION ledger_claim(uuid[], text[]) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION ledger_post_batch(
  uuid[], text[], uuid[], uuid[], bigint[], text[], bigint[], uuid[], uuid[], uuid[], bigint, bigint, timestamptz
) SET plan_cache_mode = force_generic_plan;
