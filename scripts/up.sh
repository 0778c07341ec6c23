#!/usr/bin/env bash
# Brings the whole system up locally: installs the infrastructure if missing, builds, starts
# MongoDB-wire (FerretDB), NATS and Redis on their standard loopback ports (unless MONGO_URL,
# NATS_URL, REDIS_URL point elsewhere), runs the four services, seeds one demo tenant per tier
# and prints how to call the gateway at http://localhost:3000/api/v1. Ctrl-C stops everything.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."
source scripts/node-env.sh # Node 24 first in PATH for everything below
bash scripts/install-infra.sh
bash scripts/ensure-deps.sh
source scripts/dev-env.sh
mkdir -p .infra/data
# Every gRPC hop is mutual TLS: a local CA and one certificate per service and the operator CLI,
# made on the first run and reused after (.infra/pki, gitignored).
node packages/testkit/dist/bin/tap-infra.js pki .infra/pki
exec node packages/testkit/dist/bin/tap-infra.js run --standard-ports --data-dir .infra/data -- \
  node tools/cli/dist/main.js stack
