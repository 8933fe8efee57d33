#!/usr/bin/env bash
# The whole suite, in the order that fails fastest: format, lint, types, unit tests, server tests on PGlite,
# server tests on PostgreSQL, the short failover test, then the browser tests on Debian's Chromium, the home page's JavaScript budget
# and Lighthouse.
set -euo pipefail
cd "$(dirname "$0")/.."

summary=()
step() {
  local name="$1"
  shift
  echo
  echo "=== $name"
  local started=$SECONDS
  "$@"
  summary+=("$(printf '%-28s %4ss' "$name" "$((SECONDS - started))")")
}

step "format" npx prettier --check . --log-level warn
step "lint" npx eslint . --max-warnings 0
step "typecheck" npm run --silent typecheck
step "unit tests" npx vitest run --project unit
step "server tests (PGlite)" npx vitest run --project server
step "server tests (PostgreSQL)" env TEST_DATABASE=postgres bash scripts/with-postgres.sh npx vitest run --project server
# Two API server processes behind HAProxy on a primary + synchronous standby: one server, then the primary killed.
step "failover (short)" npm run --silent test:failover -- --short
step "browser tests" npm run --silent test:e2e
# Both reuse the build the browser tests just made (apps/web/dist).
step "web budget" node --import tsx bench/web.ts
step "lighthouse" npm run --silent test:lighthouse

echo
echo "=== all green"
printf '%s\n' "${summary[@]}"
