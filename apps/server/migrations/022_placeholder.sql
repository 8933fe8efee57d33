-- Placeholder on branch palm-pay-trust only, so migration 023 runs in sequence before the teammate's 022
-- lands; dropped at the merge in favour of theirs.
SELECT 1;
