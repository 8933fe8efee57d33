#!/usr/bin/env bash
# Runs a command with DATABASE_URL_TEST pointing at PostgreSQL.
# Uses DATABASE_URL_TEST when it is set; otherwise starts a throwaway PostgreSQL 15 cluster from
# /usr/lib/postgresql/15/bin (as the postgres user when run as root, since initdb refuses root) and removes it
# afterwards.
set -euo pipefail

if [ -n "${DATABASE_URL_TEST:-}" ]; then
  exec "$@"
fi

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "PostgreSQL 15 server binaries not found in $PG_BIN: install postgresql-15 (apt-get install postgresql-15) or set DATABASE_URL_TEST." >&2
  exit 1
fi

cluster_dir="$(mktemp -d /tmp/hasta-pg.XXXXXX)"
port="${PG_TEST_PORT:-$(( 20000 + RANDOM % 20000 ))}"
as_owner=()
if [ "$(id -u)" = "0" ]; then
  chown postgres: "$cluster_dir"
  as_owner=(runuser -u postgres --)
fi

cleanup() {
  "${as_owner[@]}" "$PG_BIN/pg_ctl" -D "$cluster_dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster_dir"
}
trap cleanup EXIT

"${as_owner[@]}" "$PG_BIN/initdb" -D "$cluster_dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$cluster_dir/initdb.log" 2>&1 \
  || { cat "$cluster_dir/initdb.log" >&2; exit 1; }
"${as_owner[@]}" "$PG_BIN/pg_ctl" -D "$cluster_dir/data" -l "$cluster_dir/server.log" -w -t 60 \
  -o "-p $port -k $cluster_dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$cluster_dir/server.log" >&2; exit 1; }

export DATABASE_URL_TEST="postgres://postgres@127.0.0.1:$port/postgres"
echo "PostgreSQL 15 test cluster on port $port"
"$@"
