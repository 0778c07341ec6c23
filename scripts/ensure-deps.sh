#!/usr/bin/env bash
# Installs npm dependencies when node_modules is missing, older than the lockfile or installed
# under another Node (native addons are built for one Node ABI), Debian's chromium for the
# console's browser tests when missing, then builds every workspace through Turborepo (cached).
# Runs on Node 24 (scripts/node-env.sh).
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
source scripts/node-env.sh
# The Node that installed node_modules, kept next to it: "<version> abi <modules>".
node_stamp=node_modules/.tap-node-version
node_now="$(node -p '`${process.version} abi ${process.versions.modules}`')"
node_had="$(cat "$node_stamp" 2>/dev/null || echo none)"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ "$node_had" != "$node_now" ]; then
  echo "[setup] npm ci (Node $node_now; node_modules had: $node_had)"
  export npm_config_nodedir="${TAP_NODE_HEADERS:-${npm_config_nodedir:-}}"
  [ -n "$npm_config_nodedir" ] || unset npm_config_nodedir
  # npm 11.19 writes lockfiles without the other platforms' optional binaries (@swc/core-darwin-*,
  # @turbo/windows-*, ...) and then its own `npm ci` refuses them as out of sync. When that
  # happens, install from the same lockfile with `npm install --no-save` (same versions, nothing
  # rewritten).
  if ! npm ci --no-audit --no-fund --loglevel=error 2>/tmp/npm-ci.err; then
    if grep -q "Missing: .* from lock file" /tmp/npm-ci.err; then
      echo "[setup] npm ci refused this npm's own lockfile (missing other-platform optionals); npm install --no-save"
      npm install --no-save --no-audit --no-fund --loglevel=error
      # `npm install` leaves an up-to-date tree alone, addons built for another Node's ABI
      # included: build them again for this one.
      if [ "$node_had" != "$node_now" ]; then
        echo "[setup] npm rebuild (native addons for Node $node_now)"
        npm rebuild --loglevel=error
      fi
    else
      cat /tmp/npm-ci.err >&2
      exit 1
    fi
  fi
  echo "$node_now" >"$node_stamp"
  unset npm_config_nodedir
fi
# The console's browser tests drive Debian's chromium (idempotent; skipped when it is there).
bash scripts/install-chromium.sh
echo "[setup] building"
npx turbo run build --output-logs=errors-only
