#!/usr/bin/env bash
# `npm run tap -- <command>`: the operator CLI on Node 24 (scripts/node-env.sh), from any
# terminal. Against a loopback stack it reads its development defaults from config/dev.env
# itself (tools/cli/src/dev-defaults.ts); nothing needs to be sourced first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/node-env.sh"
exec node "$root/tools/cli/dist/main.js" "$@"
