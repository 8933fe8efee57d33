#!/usr/bin/env bash
# A throwaway PostgreSQL 15 primary with a synchronous streaming standby, from Debian's binaries in
# /usr/lib/postgresql/15/bin (run as the postgres user when called as root, since initdb refuses root).
# The failover test and `npm run cluster` use it.
#
#   pg-cluster.sh start DIR PRIMARY_PORT STANDBY_PORT
#       initdb the primary in DIR/primary and start it on 127.0.0.1:PRIMARY_PORT with
#       synchronous_standby_names=hasta_standby and synchronous_commit=on; copy it with pg_basebackup -R over a
#       physical replication slot into DIR/standby; start the standby on STANDBY_PORT; return once the
#       primary reports it as its synchronous standby (from then on a commit is acknowledged only once it is
#       flushed on both). Prints the libpq multi-host DATABASE_URL.
#   pg-cluster.sh kill-primary DIR     stops the primary at once (pg_ctl -m immediate: a crash, no shutdown)
#   pg-cluster.sh promote DIR          promotes the standby (pg_ctl promote) and waits until it takes writes
#   pg-cluster.sh stop DIR             stops both at once and removes DIR
#
# PG_BIN overrides where the binaries are; PG_CLUSTER_FSYNC=off turns fsync off on both (tests: a commit still
# waits for the standby, but neither waits for its disk).
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
SLOT=hasta_standby
READY_TIMEOUT_S=60

usage() {
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

as_owner=()
if [ "$(id -u)" = "0" ]; then
  as_owner=(runuser -u postgres --)
fi

pg() {
  local tool="$1"
  shift
  "${as_owner[@]}" "$PG_BIN/$tool" "$@"
}

psql_at() {
  pg psql -X -q -t -A -h 127.0.0.1 -p "$1" -U postgres -d postgres -c "$2"
}

fail_with_logs() {
  echo "pg-cluster: $1" >&2
  for log in "$dir/primary.log" "$dir/standby.log" "$dir/setup.log"; do
    [ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }
  done
  exit 1
}

start() {
  local primary_port="$1" standby_port="$2"
  if [ ! -x "$PG_BIN/initdb" ]; then
    echo "PostgreSQL 15 server binaries not found in $PG_BIN: apt-get install postgresql-15" >&2
    exit 1
  fi
  mkdir -p "$dir"
  if [ ${#as_owner[@]} -gt 0 ]; then chown postgres: "$dir"; fi
  printf '%s %s\n' "$primary_port" "$standby_port" >"$dir/ports"
  local fsync="${PG_CLUSTER_FSYNC:-on}"
  local common="-k $dir -c listen_addresses=127.0.0.1 -c max_connections=100 -c fsync=$fsync"

  pg initdb -D "$dir/primary" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/setup.log" 2>&1 \
    || fail_with_logs "initdb failed"
  # The primary's own settings go on its command line, not in its postgresql.conf: pg_basebackup copies the
  # data directory, and a promoted standby must not wait for a synchronous standby it does not have.
  pg pg_ctl -D "$dir/primary" -l "$dir/primary.log" -w -t "$READY_TIMEOUT_S" \
    -o "-p $primary_port $common -c wal_level=replica -c max_wal_senders=5 -c max_replication_slots=5 -c synchronous_standby_names=$SLOT -c synchronous_commit=on" \
    start >>"$dir/setup.log" 2>&1 || fail_with_logs "the primary did not start"
  psql_at "$primary_port" "SELECT pg_create_physical_replication_slot('$SLOT')" >>"$dir/setup.log" 2>&1 \
    || fail_with_logs "the replication slot was not created"

  pg pg_basebackup -h 127.0.0.1 -p "$primary_port" -U postgres -D "$dir/standby" -R -S "$SLOT" -X stream \
    >>"$dir/setup.log" 2>&1 || fail_with_logs "pg_basebackup failed"
  # -R wrote primary_conninfo; the standby names itself as synchronous_standby_names expects (a later line
  # of postgresql.auto.conf wins).
  echo "primary_conninfo = 'host=127.0.0.1 port=$primary_port user=postgres application_name=$SLOT'" \
    | "${as_owner[@]}" tee -a "$dir/standby/postgresql.auto.conf" >/dev/null
  pg pg_ctl -D "$dir/standby" -l "$dir/standby.log" -w -t "$READY_TIMEOUT_S" \
    -o "-p $standby_port $common -c hot_standby=on" \
    start >>"$dir/setup.log" 2>&1 || fail_with_logs "the standby did not start"

  local deadline=$((SECONDS + READY_TIMEOUT_S))
  until [ "$(psql_at "$primary_port" "SELECT sync_state FROM pg_stat_replication WHERE application_name = '$SLOT'" 2>/dev/null)" = "sync" ]; do
    [ $SECONDS -ge $deadline ] && fail_with_logs "the standby did not become synchronous in ${READY_TIMEOUT_S}s"
    sleep 0.2
  done
  echo "postgres://postgres@127.0.0.1:$primary_port,127.0.0.1:$standby_port/postgres"
}

kill_primary() {
  pg pg_ctl -D "$dir/primary" -m immediate stop >/dev/null
}

promote() {
  pg pg_ctl -D "$dir/standby" -w -t "$READY_TIMEOUT_S" promote >/dev/null
  local standby_port
  standby_port="$(cut -d' ' -f2 "$dir/ports")"
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  until [ "$(psql_at "$standby_port" "SELECT pg_is_in_recovery()" 2>/dev/null)" = "f" ]; do
    [ $SECONDS -ge $deadline ] && fail_with_logs "the standby did not leave recovery in ${READY_TIMEOUT_S}s"
    sleep 0.1
  done
}

stop() {
  for node in primary standby; do
    if [ -f "$dir/$node/postmaster.pid" ]; then
      pg pg_ctl -D "$dir/$node" -m immediate stop >/dev/null 2>&1 || true
    fi
  done
  rm -rf "$dir"
}

[ $# -ge 2 ] || usage
command="$1"
dir="$2"
case "$command" in
  start)
    [ $# -eq 4 ] || usage
    start "$3" "$4"
    ;;
  kill-primary) kill_primary ;;
  promote) promote ;;
  stop) stop ;;
  *) usage ;;
esac
