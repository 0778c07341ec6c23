# shellcheck shell=bash disable=SC2034 # the arrays are used by the scripts that source this one
# Shared by the scripts in scripts/image (sourced, not run).
# buildah/podman flags: STORAGE_DRIVER (e.g. vfs where overlay mounts fail), OCI_RUNTIME (runc
# when installed: crun 1.8 refuses hosts whose cgroups are mounted in hybrid v1/v2 mode).
# The project's Node (scripts/node-env.sh: TAP_NODE_VERSION, and Node 24 first in PATH for the
# `node` and `npx` these scripts run on the host).
# shellcheck source=../node-env.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node-env.sh"
NODE_VERSION="${NODE_VERSION:-$TAP_NODE_VERSION}"
BASE_IMAGE="${BASE_IMAGE:-localhost/tap-stand-in/node:${NODE_VERSION}-bookworm-slim}"
if [ -z "${OCI_RUNTIME:-}" ] && command -v runc >/dev/null; then OCI_RUNTIME=runc; fi
bah=(buildah ${STORAGE_DRIVER:+--storage-driver "$STORAGE_DRIVER"})
pod=(podman ${STORAGE_DRIVER:+--storage-driver "$STORAGE_DRIVER"} ${OCI_RUNTIME:+--runtime "$OCI_RUNTIME"})
if [ -n "${OCI_RUNTIME:-}" ]; then export BUILDAH_RUNTIME="$OCI_RUNTIME"; fi
# podman's defaults (nofile 1048576, nproc 4194304) are above this sandbox's hard limits, and
# without CAP_SYS_RESOURCE the container cannot start; podman itself runs with nproc 32768 there.
nproc="$(ulimit -Hu)"
if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
run_limits=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit "nproc=$nproc:$nproc")
