#!/usr/bin/env bash
# Installs npm dependencies when node_modules is missing or older than the lockfile, then
# builds every workspace through Turborepo (cached).
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "[setup] building"
npx turbo run build --output-logs=errors-only
