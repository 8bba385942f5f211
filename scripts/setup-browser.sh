#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test of the docs, where it is missing. Playwright's own
# browser download needs a network these machines do not have; Debian's package does not.
set -euo pipefail
case "${1:-}" in
  -h | --help)
    cat <<'USAGE'
Usage: npm run setup:browser

  Installs Debian's Chromium (apt-get, with sudo when not root) for the browser test of the
  published docs, unless /usr/bin/chromium is already there.

  -h, --help   this text
USAGE
    exit 0
    ;;
  "") ;;
  *)
    echo "setup-browser: unknown argument '$1'; see --help" >&2
    exit 2
    ;;
esac
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
