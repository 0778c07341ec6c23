#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Smoke-checks one service image with podman (called by build-offline.sh; runs alone too):
#
#   sudo bash scripts/image/smoke.sh <service> <image>
#
# 1. runs as uid 10001, and /app is not writable by it;
# 2. node_modules holds no dev dependency (npm's record of the install, plus a look for typescript,
#    jest, turbo, @swc, eslint, prettier, testcontainers on disk), and every package the service
#    needs at run time, its workspaces' dependencies included, resolves from its directory;
# 3. with a root filesystem read-only and no /tmp, a bad configuration exits 78 with one line per
#    bad variable (no variable at all for identity, adoption, entitlements; two bad ones and the
#    three required GRPC_TLS_* files for the gateway);
# 4. unless INFRA=0: under `npx tap-infra run` (FerretDB, NATS, Redis on loopback), read-only with
#    a tmpfs /tmp as in deploy/k8s, the service answers /healthz (and /readyz except the gateway,
#    which is ready only with the three gRPC services), node is PID 1, and SIGTERM ends it with 0.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

if [ "${1:-}" = --health ]; then mode=health && shift; else mode=all; fi
s="${1:?service}"
img="${2:?image}"
fail() { echo "smoke $s: FAIL: $*" >&2 && exit 1; }
ok() { echo "smoke $s: ok: $*"; }
run=("${pod[@]}" run --rm --pull=never "${run_limits[@]}" --network none)
ro=(--read-only --read-only-tmpfs=false)

health_check() {
  local http_port grpc_port name up="" code
  http_port="$(node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  grpc_port="$(node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  local env=(-e HOST=127.0.0.1 -e LOG_LEVEL=warn -e "MONGO_URL=${MONGO_URL:?run under tap-infra}" -e "NATS_URL=${NATS_URL:?}" -e "REDIS_URL=${REDIS_URL:?}"
    -e "OPERATOR_TOKEN=$(head -c 32 /dev/urandom | base64)" -e "KEY_ENCRYPTION_SECRET=$(head -c 32 /dev/urandom | base64)")
  local db="smoke_${RANDOM}_$$"
  # Its mTLS certificate (every gRPC port is mutual TLS): a throwaway PKI, readable by uid 10001.
  local pki
  pki="$(mktemp -d)"
  node "$repo/packages/testkit/dist/bin/tap-infra.js" pki "$pki" >/dev/null 2>&1 || fail "tap-infra pki failed"
  chmod -R a+rX "$pki/$s"
  env+=(-v "$pki/$s:/tls:ro" -e GRPC_TLS_CERT_FILE=/tls/tls.crt -e GRPC_TLS_KEY_FILE=/tls/tls.key -e GRPC_TLS_CA_FILE=/tls/ca.crt)
  case "$s" in
    gateway) env+=(-e "GATEWAY_PORT=$http_port") ;;
    identity) env+=(-e "IDENTITY_HTTP_PORT=$http_port" -e "IDENTITY_GRPC_PORT=$grpc_port" -e "IDENTITY_MONGO_DB=$db") ;;
    adoption) env+=(-e "ADOPTION_HTTP_PORT=$http_port" -e "ADOPTION_GRPC_PORT=$grpc_port" -e "ADOPTION_MONGO_DB=$db") ;;
    entitlements) env+=(-e "ENTITLEMENTS_HTTP_PORT=$http_port" -e "ENTITLEMENTS_GRPC_PORT=$grpc_port" -e "ENTITLEMENTS_MONGO_DB=$db") ;;
  esac
  name="tap-smoke-$s-$$"
  "${pod[@]}" run -d --pull=never "${run_limits[@]}" --name "$name" --network host "${ro[@]}" --tmpfs /tmp:rw,size=64m \
    --cap-drop ALL --security-opt no-new-privileges "${env[@]}" "$img" >/dev/null
  # shellcheck disable=SC2064
  trap "'${pod[0]}' ${pod[*]:1} rm -f '$name' >/dev/null 2>&1 || true" EXIT
  for _ in $(seq 1 60); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$http_port/healthz" 2>/dev/null; then up=1 && break; fi
    [ "$("${pod[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] || break
    sleep 0.5
  done
  [ -n "$up" ] || { "${pod[@]}" logs "$name" >&2 || true; fail "/healthz never answered on $http_port"; }
  ok "GET /healthz answers (port $http_port, read-only root, tmpfs /tmp, no capabilities)"
  if [ "$s" != gateway ]; then
    code=""
    for _ in $(seq 1 60); do
      code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$http_port/readyz" || true)"
      [ "$code" = 200 ] && break
      sleep 0.5
    done
    [ "$code" = 200 ] || { "${pod[@]}" logs "$name" >&2 || true; fail "/readyz answers $code"; }
    ok "GET /readyz 200 (MongoDB, NATS/Redis reached)"
  fi
  local pid1
  pid1="$("${pod[@]}" exec "$name" cat /proc/1/cmdline | tr '\0' ' ')"
  [ "$pid1" = "node dist/main.js " ] || fail "PID 1 is '$pid1'"
  ok "PID 1 is node dist/main.js"
  "${pod[@]}" stop -t 10 "$name" >/dev/null
  code="$("${pod[@]}" inspect --format '{{.State.ExitCode}}' "$name")"
  [ "$code" = 0 ] || { "${pod[@]}" logs "$name" >&2 || true; fail "exit code $code after SIGTERM"; }
  ok "SIGTERM: exit 0"
}

if [ "$mode" = health ]; then
  health_check
  exit 0
fi

# 1. User and ownership.
uid="$("${run[@]}" "${ro[@]}" "$img" id -u)"
[ "$uid" = 10001 ] || fail "runs as uid $uid"
# shellcheck disable=SC2016 # expanded by the container's shell
if "${run[@]}" "$img" sh -c 'touch /app/x || touch "/app/services/$(basename "$PWD")/dist/x" || touch /app/node_modules/x' 2>/dev/null; then
  fail "/app is writable by uid 10001"
fi
ok "uid 10001; /app not writable by it"

# 2. Dependencies.
"${run[@]}" "$img" cat /app/node_modules/.package-lock.json | node -e '
  const lock = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const dev = Object.entries(lock.packages).filter(([, p]) => p.dev && !p.link).map(([k]) => k);
  if (dev.length) { console.error(dev.join("\n")); process.exit(1); }' || fail "dev dependencies installed (above)"
# shellcheck disable=SC2016
found="$("${run[@]}" "$img" sh -c 'cd /app; for d in node_modules packages/*/node_modules services/*/node_modules; do
    for p in typescript jest @jest turbo @swc prettier eslint typescript-eslint @types/jest testcontainers; do
      [ -e "$d/$p" ] && echo "$d/$p"; done; done; true')"
[ -z "$found" ] || fail "dev-only packages present: $found"
# shellcheck disable=SC2016 # JavaScript
closure="$("${run[@]}" "$img" node -e '
  const fs = require("fs"), path = require("path");
  const seen = new Set(), missing = [];
  function walk(dir) {
    const pj = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const dep of Object.keys(pj.dependencies || {})) {
      let found;
      for (let cur = dir; ; cur = path.dirname(cur)) {
        const c = path.join(cur, "node_modules", dep);
        if (fs.existsSync(path.join(c, "package.json"))) { found = fs.realpathSync(c); break; }
        if (cur === "/") break;
      }
      if (!found) missing.push(`${pj.name} -> ${dep}`);
      else if (!seen.has(found)) { seen.add(found); walk(found); }
    }
  }
  walk(process.cwd());
  if (missing.length) { console.error(missing.join("\n")); process.exit(1); }
  console.log(seen.size);')" || fail "runtime dependencies missing (above)"
ok "no dev dependency; $closure runtime packages resolve from services/$s"

# 3. Configuration errors, read-only, no /tmp.
case "$s" in
  # Every service also lacks GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE, GRPC_TLS_CA_FILE (3 lines).
  gateway) bad=(-e GATEWAY_PORT=not-a-port -e LOG_LEVEL=loud) expect=5 ;;
  identity) bad=() expect=6 ;; # MONGO_URL, KEY_ENCRYPTION_SECRET, OPERATOR_TOKEN, the three TLS files
  *) bad=() expect=4 ;;        # MONGO_URL, the three TLS files
esac
set +e
out="$("${run[@]}" "${ro[@]}" "${bad[@]}" "$img" 2>&1)"
rc=$?
set -e
while IFS= read -r line; do echo "  | $line"; done <<<"$out"
[ "$rc" = 78 ] || fail "exit code $rc, expected 78"
lines="$(echo "$out" | grep -c "^$s: invalid configuration: " || true)"
if [ "$lines" != "$expect" ] || [ "$(echo "$out" | wc -l)" != "$expect" ]; then
  fail "expected $expect lines, one per bad variable"
fi
ok "bad configuration: exit 78, $expect lines (read-only root, no /tmp)"

# 4. Health against loopback infrastructure.
if [ "${INFRA:-1}" != 0 ]; then
  (cd "$repo" && npx --no tap-infra run -- bash "$here/smoke.sh" --health "$s" "$img")
fi
