#!/usr/bin/env bash
# Makes sure `npm run cluster` has what it runs from Debian's packages: PostgreSQL 15's server binaries and
# HAProxy. Installs what is missing with apt-get when running as root; otherwise stops with a clear message.
set -euo pipefail

pg_bin="${PG_BIN:-/usr/lib/postgresql/15/bin}"
haproxy="${HAPROXY:-haproxy}"
missing=()
[ -x "$pg_bin/initdb" ] || missing+=(postgresql-15)
command -v "$haproxy" >/dev/null 2>&1 || missing+=(haproxy)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "npm run cluster needs Debian's ${missing[*]}: install as root (apt-get install ${missing[*]}), or set PG_BIN / HAPROXY to where they are." >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]} with apt-get..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ -x "$pg_bin/initdb" ] || { echo "apt-get did not provide $pg_bin/initdb." >&2; exit 1; }
command -v "$haproxy" >/dev/null 2>&1 || { echo "apt-get did not provide haproxy." >&2; exit 1; }
