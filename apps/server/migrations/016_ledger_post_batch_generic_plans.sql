-- ledger_post_batch's statements run on plans made once (decision 019). Under the default plan cache mode
-- PostgreSQL planned most of them again on every call (a custom plan may look at what the arrays hold): on
-- PGlite that planning was about half the cost of a batch of one transfer, 0.9 of 1.8 ms. The generic plans
-- find the rows by the same indexes whatever the arrays hold.
ALTER FUNCTION ledger_post_batch(
  uuid[], text[], uuid[], uuid[], bigint[], text[], uuid[], uuid[], text[], timestamptz[], text[], bigint, bigint
) SET plan_cache_mode = force_generic_plan;
