#!/usr/bin/env bash
# Installs schemathesis (the fuzz gate's driver, tests/system/test/fuzz-gate.test.ts) from PyPI
# into its own virtual environment under .infra/venv, pinned. Idempotent: a venv that already
# has this exact version is left alone. Debian's python3 needs python3-venv for `-m venv`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${TAP_SCHEMATHESIS_VENV:-$root/.infra/venv}"
version="4.32.5"

say() { printf '[install-schemathesis] %s\n' "$*"; }
sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Read into a variable first: under pipefail, `pip show | grep -q` fails when grep exits before
# pip finished writing (SIGPIPE), and the venv was then rebuilt for nothing.
installed=$([ -x "$venv/bin/st" ] && "$venv/bin/python" -m pip show schemathesis 2>/dev/null || true)
if [[ $'\n'"$installed"$'\n' == *$'\n'"Version: $version"$'\n'* ]]; then
  exit 0
fi
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  say "installing python3-venv from Debian's packages"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
say "installing schemathesis $version into $venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$version"
say "ready: $("$venv/bin/st" --version)"
