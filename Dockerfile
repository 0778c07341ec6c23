# syntax=docker/dockerfile:1
# One image per service, all from this file at the repository root:
#
#   docker build --build-arg SERVICE=gateway -t tap/gateway:0.1.0 .
#
# SERVICE is gateway, identity, adoption or entitlements. The runtime image keeps the repository
# layout the code relies on at run time (proto/ is loaded from packages/contracts/dist/../../../proto):
#   /app/proto  /app/packages/*/{package.json,dist}  /app/services/<SERVICE>/{package.json,dist}  /app/node_modules
# Production dependencies only, non-root (uid 10001), no HEALTHCHECK: Kubernetes probes the
# HTTP health port and grpc.health.v1 (deploy/k8s). See docs/operations.md.

# The npm that ships with this image (10.x) is the one that installs: npm 11.19 writes lockfiles
# without the other platforms' optional binaries and then refuses them in its own `npm ci`
# (scripts/ensure-deps.sh); npm 10 installs the same lockfile as it is. Pin the digest as well
# (node:20.20.2-bookworm-slim@sha256:...) where your registry mirror lets you resolve it.
ARG NODE_VERSION=20.20.2

FROM node:${NODE_VERSION}-bookworm-slim AS base
ENV TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1 \
    NPM_CONFIG_AUDIT=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app

# The lockfile and every workspace's package.json, nothing else. The installs below depend only
# on this stage's output, so their layers are reused until a dependency changes, not on every
# source edit. (npm checks the lockfile against all workspaces, so all manifests are needed.)
FROM base AS manifests
WORKDIR /src
COPY . .
RUN mkdir -p /manifests \
 && cp package.json package-lock.json /manifests/ \
 && find packages services tools tests -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# Build: every dependency from the lockfile (dev included: tsc, turbo), then the service and the
# workspaces it depends on. No install scripts run: none of our dependencies needs one to work
# (native code such as @node-rs/argon2 comes as prebuilt optional packages).
FROM base AS build
ARG SERVICE
RUN case "${SERVICE}" in gateway|identity|adoption|entitlements) ;; \
      *) echo "build with --build-arg SERVICE=gateway|identity|adoption|entitlements (got '${SERVICE}')" >&2; exit 1 ;; esac
COPY --from=manifests /manifests/ ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npx turbo run build --filter="@tap/${SERVICE}..." --output-logs=errors-only
# What the runtime needs of the built workspaces besides their manifests and dependencies: dist,
# without type declarations.
RUN mkdir -p /out \
 && for dir in packages/* "services/${SERVICE}"; do \
      if [ -d "${dir}/dist" ]; then mkdir -p "/out/${dir}" && cp -r "${dir}/dist" "/out/${dir}/"; fi; \
    done \
 && find /out \( -name '*.d.ts' -o -name '*.d.ts.map' \) -delete

# Production dependencies of this one service (its workspace and the workspaces it links to).
# `turbo prune --docker` gives the same node_modules here and would need a second tool; see
# docs/operations.md ("Images").
FROM base AS deps
ARG SERVICE
COPY --from=manifests /manifests/ ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace="@tap/${SERVICE}"

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
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
