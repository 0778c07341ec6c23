#!/usr/bin/env bash
# Runs only the unit projects (src/**/*.test.ts): no infrastructure is started or needed, so this
# works without FerretDB, NATS or Redis and takes seconds per workspace once everything is built.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
source scripts/node-env.sh # Node 24 first in PATH
bash scripts/ensure-deps.sh
source scripts/dev-env.sh
export LOG_LEVEL=silent
npx turbo run test:unit --concurrency=2 --output-logs=errors-only "$@"
