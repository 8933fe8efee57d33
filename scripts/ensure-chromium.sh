#!/usr/bin/env bash
# Makes sure Debian's Chromium is there for the browser tests: installs it with apt-get when missing and
# running as root; otherwise stops with a clear message. Browsers are never downloaded by the test tools.
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "Chromium is missing at $chromium. Install Debian's package as root (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary, then run npm test again." >&2
  exit 1
fi
echo "Installing Debian's chromium with apt-get..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
[ -x "$chromium" ] || { echo "apt-get did not provide $chromium." >&2; exit 1; }
