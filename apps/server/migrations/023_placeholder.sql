-- Placeholder on branch palm-enrol-stepup only, so migration 024 runs in sequence before the teammates'
-- 023 lands; dropped at the merge in favour of theirs.
SELECT 1;
