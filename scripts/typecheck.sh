#!/usr/bin/env bash
# npm run typecheck: one tsc per project (each checks the workspace sources it imports), as many at once as
# the machine has cores: the projects are independent, and one tsc keeps one core busy. The largest start
# first. Every project is checked; the run fails, naming them, if any has errors.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="$(node -p 'require("node:os").availableParallelism()')"
printf '%s\n' apps/web apps/server e2e packages/palm packages/contracts packages/tlog packages/ledger |
  xargs -P "$jobs" -I{} sh -c 'node_modules/.bin/tsc --noEmit -p "$1" || { echo "typecheck: errors in $1" >&2; exit 1; }' _ {}
