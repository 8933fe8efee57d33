-- A placeholder on the rewards branch only: migration 029 belongs to another branch of this session, and the
-- migrator wants an unbroken sequence. Drop this file when merging (the other branch's 029 takes its place).
SELECT 1;
