#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds and smoke-checks the service images without a Docker engine or Docker Hub: buildah and
# podman from Debian, the repository's Dockerfile unchanged, FROM a local stand-in for
# node:24.21.0-bookworm-slim (scripts/image/build-base.sh, made when missing). `npm ci` in the
# build reaches the npm registry. Too slow for `npm test`; run it by hand after changing the
# Dockerfile, .dockerignore or dependencies (see docs/operations.md, "Images").
#
#   sudo bash scripts/image/build-offline.sh [service...]      # default: all four
#
# Environment: TAG (default the service's package.json version), SMOKE=0 to only build, NO_CACHE=1,
# INFRA=0 to skip the /healthz check against `npx tap-infra` (FerretDB, NATS, Redis on loopback),
# NPM_CAFILE (a CA bundle for npm inside the build, for networks that intercept TLS; default the
# host npm's `cafile`), REBUILD_BASE=1, and STORAGE_DRIVER / OCI_RUNTIME (common.sh).
# Needs root, buildah, podman, debootstrap: apt-get install -y buildah podman debootstrap runc
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

services=("$@")
[ ${#services[@]} -gt 0 ] || services=(gateway identity adoption entitlements)
for s in "${services[@]}"; do
  case "$s" in gateway | identity | adoption | entitlements) ;; *) echo "unknown service: $s" >&2 && exit 2 ;; esac
done
[ "$(id -u)" = 0 ] || { echo "build-offline: run as root" >&2; exit 1; }
for tool in buildah podman; do
  command -v "$tool" >/dev/null || { echo "build-offline: $tool missing (apt-get install -y buildah podman debootstrap runc)" >&2; exit 1; }
done

secs() { echo $(($(date +%s) - $1)); }
t0=$(date +%s)
if [ "${REBUILD_BASE:-0}" = 1 ] || ! "${bah[@]}" inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then
  t=$(date +%s)
  BASE_IMAGE="$BASE_IMAGE" bash "$here/build-base.sh"
  echo "base image: $(secs "$t") s"
fi

# npm inside the build trusts only Node's bundled CAs. Where TLS is intercepted, hand it the
# host's bundle through a read-only mount over /usr/local/etc (npm's global npmrc lives there):
# nothing of it stays in any layer.
build_mounts=()
cafile="${NPM_CAFILE-$(npm config get cafile 2>/dev/null || true)}"
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ "$cafile" != undefined ] && [ -f "$cafile" ]; then
  npmconf="$(mktemp -d "${TMPDIR:-/tmp}/tap-npmconf.XXXXXX")"
  trap 'rm -rf "$npmconf"' EXIT
  cp "$cafile" "$npmconf/build-ca.crt"
  echo "cafile=/usr/local/etc/build-ca.crt" >"$npmconf/npmrc"
  chmod -R a+rX "$npmconf"
  build_mounts=(--volume "$npmconf:/usr/local/etc:ro")
fi

declare -A took
for s in "${services[@]}"; do
  tag="${TAG:-$(node -p "require('$repo/services/$s/package.json').version")}"
  t=$(date +%s)
  echo "== build tap/$s:$tag"
  "${bah[@]}" bud --pull=never --layers ${NO_CACHE:+--no-cache} ${OCI_RUNTIME:+--runtime "$OCI_RUNTIME"} "${build_mounts[@]}" \
    --build-arg BASE_IMAGE="$BASE_IMAGE" --build-arg SERVICE="$s" \
    -f "$repo/Dockerfile" -t "tap/$s:$tag" "$repo"
  took[$s]=$(secs "$t")
  echo "== tap/$s:$tag built in ${took[$s]} s"
  if [ "${SMOKE:-1}" != 0 ]; then
    bash "$here/smoke.sh" "$s" "localhost/tap/$s:$tag"
  fi
done

echo
echo "service        build(s)  image size"
for s in "${services[@]}"; do
  tag="${TAG:-$(node -p "require('$repo/services/$s/package.json').version")}"
  printf '%-14s %8s  %s\n' "$s" "${took[$s]}" "$("${bah[@]}" images --format '{{.Size}}' "localhost/tap/$s:$tag")"
done
printf '%-14s %8s  %s\n' "(base)" "" "$("${bah[@]}" images --format '{{.Size}}' "$BASE_IMAGE")"
echo "total: $(secs "$t0") s"
