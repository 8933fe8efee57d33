#!/usr/bin/env bash
# The unit and server suites again on Node 24 LTS, the runtime the project moves to (decision 003). Node 24
# comes from the npm registry's `node` package, installed into a throwaway folder: nothing on the machine
# changes, and the dependencies `npm ci` installed (pure JavaScript and WebAssembly, plus argon2's N-API
# build) are used as they are.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE24_RANGE="${NODE24_RANGE:-24}"
runtime_dir="$(mktemp -d -t hasta-node24-XXXXXX)"
trap 'rm -rf "$runtime_dir"' EXIT

(cd "$runtime_dir" && npm install --no-save --no-audit --no-fund --loglevel=error "node@$NODE24_RANGE" >/dev/null)
export PATH="$runtime_dir/node_modules/.bin:$PATH"
version="$(node --version)"
case "$version" in
  v24.*) echo "running the unit and server suites on Node $version ($(command -v node))" ;;
  *)
    echo "expected Node 24 from the npm registry's node package, got $version" >&2
    exit 1
    ;;
esac

summary=()
step() {
  local name="$1"
  shift
  echo
  echo "=== $name (Node $version)"
  local started=$SECONDS
  "$@"
  summary+=("$(printf '%-38s %4ss' "$name (Node $version)" "$((SECONDS - started))")")
}

# The threshold's test (bench/palm-threshold.test.ts) is left to the Node 20 run: it is ten minutes of the same
# palm arithmetic the other palm unit tests run here (WebAssembly, worker threads, the engine), on fixed seeds,
# and running it twice made CI's 90-minute limit close (5051 s at stop 37). Every other unit file runs here.
step "unit tests" npx vitest run --project unit --exclude bench/palm-threshold.test.ts
step "server tests (PGlite)" npx vitest run --project server
step "server tests (PostgreSQL)" env TEST_DATABASE=postgres bash scripts/with-postgres.sh npx vitest run --project server

echo
echo "=== all green on Node $version"
printf '%s\n' "${summary[@]}"
