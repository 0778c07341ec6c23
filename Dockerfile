# syntax=docker/dockerfile:1
# One image per service, all from this file at the repository root:
#
#   docker build --build-arg SERVICE=gateway -t tap/gateway:0.1.0 .
#
# SERVICE is gateway, identity, adoption, entitlements or notifications. The runtime image keeps the repository
# layout the code relies on at run time (proto/ is loaded from packages/contracts/dist/../../../proto):
#   /app/proto  /app/packages/*/{package.json,dist}  /app/services/<SERVICE>/{package.json,dist}  /app/node_modules
# Production dependencies only, non-root (uid 10001), no HEALTHCHECK: Kubernetes probes the
# HTTP health port and grpc.health.v1 (deploy/k8s). See docs/operations.md.

# Node 24 LTS (Node 20 reached end of life in April 2026). Pin the digest as well
# (node:24.21.0-bookworm-slim@sha256:...) where your registry mirror lets you resolve it.
ARG NODE_VERSION=24.21.0
# The base of every stage. Override it to pin the digest or to use a mirror, e.g.
#   --build-arg BASE_IMAGE=node:24.21.0-bookworm-slim@sha256:...
# or the offline stand-in that scripts/image/build-base.sh makes where Docker Hub cannot be reached.
ARG BASE_IMAGE=node:${NODE_VERSION}-bookworm-slim

FROM ${BASE_IMAGE} AS base
ENV TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1 \
    NPM_CONFIG_AUDIT=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# The installs use npm 10, not the npm 11.19 that node 24.21 ships: npm 11.19 writes lockfiles
# without the other platforms' optional binaries and then refuses them in its own `npm ci`
# (scripts/ensure-deps.sh); npm 10 installs the same lockfile as it is. Only the build stages
# have it: the runtime stage starts again from the plain base and never runs npm.
ARG NPM_VERSION=10.9.9
RUN npm install --global --no-audit --no-fund "npm@${NPM_VERSION}" \
 && npm cache clean --force

# The lockfile and every workspace's package.json, nothing else. The installs below depend only
# on this stage's output, so their layers are reused until a dependency changes, not on every
# source edit. (npm checks the lockfile against all workspaces, so all manifests are needed.)
FROM base AS manifests
WORKDIR /src
COPY . .
RUN mkdir -p /manifests \
 && cp package.json package-lock.json /manifests/ \
 && find apps packages services tools tests -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# Build: every dependency from the lockfile (dev included: tsc, turbo), then the service and the
# workspaces it depends on. No install scripts run: none of our dependencies needs one to work
# (native code such as @node-rs/argon2 comes as prebuilt optional packages).
FROM base AS build
ARG SERVICE
RUN case "${SERVICE}" in gateway|identity|adoption|entitlements|notifications) ;; \
      *) echo "build with --build-arg SERVICE=gateway|identity|adoption|entitlements|notifications (got '${SERVICE}')" >&2; exit 1 ;; esac
COPY --from=manifests /manifests/ ./
# npm 10 can exit 0 after "npm error Exit handler never called!" with half a tree installed (seen
# here when the registry's TLS failed); the layer would then be cached as good. Its hidden lockfile,
# node_modules/.package-lock.json, is written last: require it.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && test -f node_modules/.package-lock.json
COPY . .
# turbo from the lockfile's install, never `npx turbo`: when that install is missing, npx fetches
# whatever turbo the registry has today instead of failing.
# The gateway serves the web console (apps/console/dist, a static build) at /console/.
RUN console=""; if [ "${SERVICE}" = gateway ]; then console="--filter=@tap/console"; fi; \
    node_modules/.bin/turbo run build --filter="@tap/${SERVICE}..." ${console:+"$console"} --output-logs=errors-only
# What the runtime needs of the built workspaces besides their manifests and dependencies: dist,
# without type declarations, of the service and the workspaces its `dependencies` reach (turbo's
# filter also builds those it only tests with, such as @tap/testkit: they stay out).
RUN node -e 'const fs = require("fs"); \
  const dirs = new Map(fs.readdirSync("packages").map((d) => [require("./packages/" + d + "/package.json").name, "packages/" + d])); \
  const todo = ["services/" + process.env.SERVICE], seen = new Set(); \
  while (todo.length) { \
    const dir = todo.pop(); \
    if (seen.has(dir)) continue; \
    seen.add(dir); \
    for (const dep of Object.keys(require("./" + dir + "/package.json").dependencies ?? {})) if (dirs.has(dep)) todo.push(dirs.get(dep)); \
  } \
  fs.writeFileSync("/tmp/runtime-workspaces", [...seen].join("\n") + "\n");' \
 && mkdir -p /out \
 && while read -r dir; do mkdir -p "/out/${dir}" && cp -r "${dir}/dist" "/out/${dir}/"; done </tmp/runtime-workspaces \
 && if [ "${SERVICE}" = gateway ]; then mkdir -p /out/apps/console && cp -r apps/console/dist /out/apps/console/; fi \
 && find /out \( -name '*.d.ts' -o -name '*.d.ts.map' \) -delete

# Production dependencies of this one service (its workspace and the workspaces it links to).
# `turbo prune --docker` gives the same node_modules here and would need a second tool; see
# docs/operations.md ("Images").
FROM base AS deps
ARG SERVICE
COPY --from=manifests /manifests/ ./
# Even with --omit=dev, `npm ci --workspace` follows a workspace's devDependencies that are
# workspaces (@tap/testkit in every service, @tap/entitlements in the gateway and adoption) and
# installs their production dependencies: testcontainers with its Docker and SSH clients, and
# undici 8 (nothing a service runs). So devDependencies are dropped first from the workspaces' manifests
# and from their entries in the lockfile, together (npm ci requires them to agree); every resolved
# version stays as locked.
RUN node -e 'const fs = require("fs"); \
  const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")); \
  for (const [key, entry] of Object.entries(lock.packages)) { \
    if (key.includes("node_modules/")) continue; \
    delete entry.devDependencies; \
    const file = (key || ".") + "/package.json"; \
    const manifest = JSON.parse(fs.readFileSync(file, "utf8")); \
    delete manifest.devDependencies; \
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n"); \
  } \
  fs.writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");'
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace="@tap/${SERVICE}" \
 && test -f node_modules/.package-lock.json

FROM ${BASE_IMAGE} AS runtime
ARG SERVICE
RUN groupadd --gid 10001 tap \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin tap
WORKDIR /app
# Owned by root and not writable by the service user: the code cannot be changed at run time.
# The whole install tree: node_modules at the root and inside workspaces (npm nests a package
# there when two versions are needed, e.g. packages/telemetry/node_modules), plus manifests.
COPY --from=deps /app/ ./
COPY --from=build /out/ ./
COPY proto ./proto
USER 10001:10001
# An exec-form CMD cannot expand SERVICE, WORKDIR can: the process runs
# /app/services/${SERVICE}/dist/main.js as PID 1 (no shell), so SIGTERM reaches node itself.
WORKDIR /app/services/${SERVICE}
CMD ["node", "dist/main.js"]
