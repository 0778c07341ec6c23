#!/usr/bin/env bash
# Installs npm dependencies when node_modules is missing or older than the lockfile, then
# builds every workspace through Turborepo (cached).
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci"
  # npm 11.19 writes lockfiles without the other platforms' optional binaries (@swc/core-darwin-*,
  # @turbo/windows-*, ...) and then its own `npm ci` refuses them as out of sync. When that
  # happens, install from the same lockfile with `npm install --no-save` (same versions, nothing
  # rewritten).
  if ! npm ci --no-audit --no-fund --loglevel=error 2>/tmp/npm-ci.err; then
    if grep -q "Missing: .* from lock file" /tmp/npm-ci.err; then
      echo "[setup] npm ci refused this npm's own lockfile (missing other-platform optionals); npm install --no-save"
      npm install --no-save --no-audit --no-fund --loglevel=error
    else
      cat /tmp/npm-ci.err >&2
      exit 1
    fi
  fi
fi
echo "[setup] building"
npx turbo run build --output-logs=errors-only
