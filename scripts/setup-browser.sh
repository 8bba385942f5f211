#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test of the docs, where it is missing. Playwright's own
# browser download needs a network these machines do not have; Debian's package does not.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "No /usr/bin/chromium and no apt-get: install Chromium, or run 'npx playwright install chromium'." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
echo "Installed $(/usr/bin/chromium --version)"
