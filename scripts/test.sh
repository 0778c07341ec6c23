#!/usr/bin/env bash
# Runs every check and every test: installs what is missing, builds, lints, type-checks, then
# runs each workspace's jest suites against one shared set of real servers (FerretDB, NATS with
# JetStream, Redis on free loopback ports, or the *_URL ones you set). Exits non-zero on any failure.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
source scripts/node-env.sh # Node 24 first in PATH for everything below
bash scripts/install-infra.sh
bash scripts/ensure-deps.sh
source scripts/dev-env.sh
export LOG_LEVEL=silent
npx prettier --check . --log-level=warn
npx turbo run lint typecheck --output-logs=errors-only
# The benchmarks import the packages' APIs: type-checked here so a change of API cannot strand them.
for bench in bench/*/tsconfig.json bench/adoption/scale/tsconfig.json; do npx tsc -p "$bench"; done
# Kubernetes manifests: kustomize build of each overlay, offline schema validation, our policy.
bash scripts/validate-k8s.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
node packages/testkit/dist/bin/tap-infra.js run -- npx turbo run test --concurrency=2 --output-logs=full 2>&1 | tee "$log" || status=$?
# One closing line for the whole run, summed over every workspace's jest summary.
awk '/Tests: +[0-9]/ {
  for (i = 1; i <= NF; i++) {
    if ($i ~ /^passed,?$/) passed += $(i-1)
    if ($i ~ /^failed,?$/) failed += $(i-1)
    if ($i ~ /^skipped,?$/) skipped += $(i-1)
  }
} END { printf "tests: %d passed, %d failed%s\n", passed, failed, (skipped ? sprintf(", %d skipped", skipped) : "") }' "$log"
exit "$status"
