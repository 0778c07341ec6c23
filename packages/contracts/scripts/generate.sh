#!/usr/bin/env bash
# Generates TypeScript types for every service contract in proto/ (handlers and clients are
# type-checked against these, never against hand-copied interfaces). Options here must match
# PROTO_LOADER_OPTIONS in src/proto-loader-options.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf src/generated
../../node_modules/.bin/proto-loader-gen-types \
  --longs=Number --enums=String --defaults --oneofs --grpcLib=@grpc/grpc-js \
  --importFileExtension=.js -I ../../proto -O src/generated \
  tap/identity/v1/identity.proto tap/adoption/v1/adoption.proto \
  tap/entitlements/v1/entitlements.proto tap/events/v1/events.proto \
  tap/notifications/v1/notifications.proto >/dev/null
