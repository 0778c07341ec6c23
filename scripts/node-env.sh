# shellcheck shell=bash
# Puts Node 24 first in PATH for the script that sources it (test.sh, up.sh, bench.sh,
# ensure-deps.sh, tap.sh, .ci/run, image/build-base.sh). Node 20 is past end of life and
# oidc-provider warns "Unsupported runtime" on it; everything we run (npm, turbo, jest, the
# services `tap stack` spawns through process.execPath) inherits this PATH.
#
# When the machine's `node` is older than 24, the pinned Node below is installed once into
# .infra/node from the npm registry's `node-linux-<arch>` package (the official binary, its
# headers included): the registry is the one download source our machines reach. Messages go to
# stderr so that `npm run tap -- seed --json` keeps a clean stdout.
TAP_NODE_VERSION="24.21.0"
TAP_NODE_MAJOR="${TAP_NODE_VERSION%%.*}"
tap_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TAP_NODE_DIR="$tap_root/.infra/node"

tap_node_major() { "${1:-node}" --version 2>/dev/null | sed -n 's/^v\([0-9]*\)\..*/\1/p'; }

# Installs TAP_NODE_VERSION into TAP_NODE_DIR unless it is there already. Idempotent.
tap_install_node() {
  if [ -x "$TAP_NODE_DIR/bin/node" ] && [ "$("$TAP_NODE_DIR/bin/node" --version 2>/dev/null)" = "v$TAP_NODE_VERSION" ]; then
    return 0
  fi
  local arch tmp
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "[node-env] no node-linux package for $(uname -m); install Node $TAP_NODE_MAJOR yourself" >&2 && return 1 ;;
  esac
  echo "[node-env] installing Node $TAP_NODE_VERSION into .infra/node (npm package node-linux-$arch, once)" >&2
  tmp="$(mktemp -d)"
  if ! (cd "$tmp" && npm pack "node-linux-$arch@$TAP_NODE_VERSION" --silent >/dev/null 2>&1 &&
    tar -xzf "node-linux-$arch-$TAP_NODE_VERSION.tgz"); then
    rm -rf "$tmp"
    echo "[node-env] could not fetch node-linux-$arch@$TAP_NODE_VERSION from the npm registry" >&2
    return 1
  fi
  mkdir -p "$(dirname "$TAP_NODE_DIR")"
  rm -rf "$TAP_NODE_DIR"
  mv "$tmp/package" "$TAP_NODE_DIR"
  rm -rf "$tmp"
  "$TAP_NODE_DIR/bin/node" --version >/dev/null
}

if [ "$(tap_node_major node)" -lt "$TAP_NODE_MAJOR" ] 2>/dev/null || ! command -v node >/dev/null 2>&1; then
  tap_install_node || return 1 2>/dev/null || exit 1
  export PATH="$TAP_NODE_DIR/bin:$PATH"
  # Native addons built from source (node-gyp: ssh2, cpu-features) must compile against this
  # Node's headers, not the ones a user npmrc's `nodedir` may name for the system Node:
  # ensure-deps.sh passes this as npm_config_nodedir to the installs.
  TAP_NODE_HEADERS="$TAP_NODE_DIR"
  hash -r
fi
