#!/usr/bin/env bash
# e2e and the benches need Debian's Chromium (browser downloads fail here). Installs it when
# missing, or says plainly what to do.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
echo "e2e: $CHROMIUM is missing; installing Debian's chromium package..."
if [ "$(id -u)" = "0" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null 2>&1; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "e2e: cannot install chromium (not root, no sudo). Install it with 'apt-get install chromium' or set CHROMIUM_PATH." >&2
  exit 1
fi
[ -x "$CHROMIUM" ] || { echo "e2e: chromium did not install at $CHROMIUM; set CHROMIUM_PATH" >&2; exit 1; }
