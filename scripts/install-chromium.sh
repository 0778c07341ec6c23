#!/usr/bin/env bash
# Installs Debian's chromium for the console's browser tests (tests/system/test/console-browser.test.ts,
# driven by playwright-core with executablePath /usr/bin/chromium). Idempotent: nothing happens
# when /usr/bin/chromium exists. Not a download of Playwright's own browsers: the distribution's
# package, updated with the machine.
set -euo pipefail

say() { printf '[install-chromium] %s\n' "$*"; }
sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
say "installing chromium from Debian's packages (once)"
sudo_if_needed apt-get update -qq
sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
say "$(/usr/bin/chromium --version 2>/dev/null || echo 'chromium installed')"
