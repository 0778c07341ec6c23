#!/usr/bin/env bash
# Runs the benchmarks under bench/ (each starts what it needs on loopback and prints ratios
# against a baseline measured in the same run).
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
source scripts/node-env.sh # Node 24 first in PATH for everything below
bash scripts/install-infra.sh
bash scripts/ensure-deps.sh
# bench/adoption/scale (issue #23): one tenant up to 500,000 products, 1,000 tenants' reads; BENCH_SIZES
# and BENCH_TENANTS shrink it (docs/benchmarks.md).
for bench in bench/*/run.mjs bench/adoption/scale/run.mjs; do
  echo "== $bench"
  node "$bench"
done
