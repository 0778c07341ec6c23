#!/usr/bin/env bash
# Installs the local infrastructure binaries on a machine of ours (Debian, Go, no Docker):
#   nats-server and redis-server from Debian's packages, FerretDB v1 built from its Go module.
# Idempotent: anything already present is left alone. Binaries we build go to .infra/bin.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin_dir="${TAP_INFRA_BIN:-$root/.infra/bin}"
ferretdb_version="v1.24.2"
mkdir -p "$bin_dir"

say() { printf '[install-infra] %s\n' "$*"; }

sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing_debs=()
command -v nats-server >/dev/null 2>&1 || missing_debs+=(nats-server)
command -v redis-server >/dev/null 2>&1 || missing_debs+=(redis-server)
if [ ${#missing_debs[@]} -gt 0 ]; then
  say "installing ${missing_debs[*]} from Debian's packages"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_debs[@]}" >/dev/null
  # The Debian packages enable system services; our stack starts its own instances on loopback.
  for svc in redis-server nats-server; do
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$svc" 2>/dev/null; then
      sudo_if_needed systemctl disable --now "$svc" >/dev/null 2>&1 || true
    fi
  done
fi

# The version is read into a variable first: under pipefail, `… | grep -q` fails whenever grep
# exits before the writer finished (SIGPIPE), and the check then rebuilt a binary that was fine.
# Our patches to FerretDB (scripts/ferretdb/*.patch, docs/foundation.md "FerretDB's limits"): the
# build is stamped with their checksum beside the binary, so a changed patch rebuilds it once.
ferretdb_patches=$(cat "$root"/scripts/ferretdb/*.patch | sha256sum | cut -c1-16)
installed_ferretdb=$([ -x "$bin_dir/ferretdb" ] && "$bin_dir/ferretdb" --version 2>/dev/null || true)
installed_patches=$(cat "$bin_dir/ferretdb.patches" 2>/dev/null || true)
if [[ "$installed_ferretdb" == *"$ferretdb_version"* && "$installed_patches" == "$ferretdb_patches" ]]; then
  :
else
  say "building FerretDB $ferretdb_version with scripts/ferretdb/*.patch (once; about a minute)"
  # `go install ...@v1.24.2` is the usual way, but the module proxy refuses the version
  # list that `go install` asks for (deprecation check), and the module zip ships an empty
  # build/version/version.txt that makes the binary panic at start. So: download the exact
  # module version, copy it somewhere writable, stamp the version file, and build it.
  mod_dir=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$ferretdb_version" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$mod_dir" ] || { say "go mod download of FerretDB failed"; exit 1; }
  build_dir=$(mktemp -d)
  trap 'rm -rf "$build_dir"' EXIT
  cp -r "$mod_dir/." "$build_dir/"
  chmod -R u+w "$build_dir"
  echo "$ferretdb_version" > "$build_dir/build/version/version.txt"
  for p in "$root"/scripts/ferretdb/*.patch; do
    (cd "$build_dir" && patch -s -p1 < "$p") || { say "FerretDB patch $p does not apply"; exit 1; }
  done
  if ! (cd "$build_dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -o "$bin_dir/ferretdb" ./cmd/ferretdb); then
    say "plain build failed; retrying with -ldflags=-checklinkname=0"
    (cd "$build_dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -ldflags=-checklinkname=0 -o "$bin_dir/ferretdb" ./cmd/ferretdb)
  fi
  echo "$ferretdb_patches" > "$bin_dir/ferretdb.patches"
fi

bash "$root/scripts/install-schemathesis.sh"
say "ready: $(command -v nats-server), $(command -v redis-server), $bin_dir/ferretdb"
