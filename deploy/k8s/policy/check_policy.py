#!/usr/bin/env python3
"""Our own rules for rendered Kubernetes manifests, checked offline.

    check_policy.py FILE...      check rendered manifests (`-` reads stdin); exit 1 on any violation
    check_policy.py --self-test  check every fixture in fixtures/ and require exactly the violations
                                 its `# expect:` header names (proves each rule can fail)

Rules (ids as printed):
  resources       every container has cpu and memory requests and limits
  non-root        runs as non-root (runAsNonRoot, no uid 0), no privilege escalation, no
                  privileged mode, capabilities drop ALL, seccomp RuntimeDefault or Localhost
  read-only-root  readOnlyRootFilesystem: true
  image-tag       every image has a tag or digest, and the tag is not `latest`
  probes          every Deployment container has liveness, readiness and startup probes
  inline-secret   no secret value in the manifests: secret-named env vars only through
                  secretKeyRef, no credentials in env or ConfigMap values, no secret-named
                  ConfigMap keys, no Secret objects carrying data
  service-links   Deployments set enableServiceLinks: false (a Service named `gateway` would
                  inject GATEWAY_PORT=tcp://..., our listen-port variable)
  trust-proxy     a workload behind an Ingress (or a Gateway API HTTPRoute) sets
                  GATEWAY_TRUST_PROXY_HOPS >= 1: with 0 it sees the ingress controller's address
                  as every caller's, so all callers share one per-address login bucket
  secret-inventory  a Secret key reaches only the workloads SECRET_INVENTORY allows it (by
                  secretKeyRef, key by key): no key outside the inventory, no whole Secret
                  through envFrom or a volume without `items` (docs/security.md, "Secret inventory")

Needs PyYAML only (installed with kubernetes-validate by scripts/validate-k8s.sh).
"""

from __future__ import annotations

import pathlib
import re
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import yaml

RULES = (
    "resources",
    "non-root",
    "read-only-root",
    "image-tag",
    "probes",
    "inline-secret",
    "service-links",
    "secret-inventory",
    "trust-proxy",
)

# Which workloads (by name) may hold each Secret key: a secret lives only in the pods that use it.
# The operator credential, which issues OWNER tokens and sets passwords, is identity's alone;
# adoption and entitlements recognise the operator by its certificate (the RPC allowlist).
# Keep in step with docs/security.md, "Secret inventory".
SECRET_INVENTORY: dict[tuple[str, str], frozenset[str]] = {
    ("tap-identity-mongo", "MONGO_URL"): frozenset({"identity"}),
    ("tap-adoption-mongo", "MONGO_URL"): frozenset({"adoption"}),
    ("tap-entitlements-mongo", "MONGO_URL"): frozenset({"entitlements"}),
    ("tap-notifications-mongo", "MONGO_URL"): frozenset({"notifications"}),
    ("tap-notifications-keys", "WEBHOOK_SECRET_ENCRYPTION_KEY"): frozenset({"notifications"}),
    ("tap-identity-keys", "KEY_ENCRYPTION_SECRET"): frozenset({"identity"}),
    ("tap-identity-keys", "KEY_ENCRYPTION_SECRET_PREVIOUS"): frozenset({"identity"}),
    ("tap-identity-keys", "TOKEN_HASH_SECRET"): frozenset({"identity"}),
    ("tap-identity-keys", "TOKEN_HASH_SECRET_PREVIOUS"): frozenset({"identity"}),
    ("tap-operator-token", "OPERATOR_TOKEN"): frozenset({"identity"}),
    ("tap-operator-token", "OPERATOR_TOKEN_PREVIOUS"): frozenset({"identity"}),
    ("tap-redis", "REDIS_URL"): frozenset({"gateway", "identity", "adoption", "entitlements", "notifications"}),
    ("tap-nats", "NATS_URL"): frozenset({"identity", "adoption", "entitlements", "notifications"}),
    ("tap-nats-gateway", "NATS_URL"): frozenset({"gateway"}),
}

# Variable names that hold secrets (and their PREVIOUS values during a rotation). MONGO_URL is one
# because it may carry a password.
SECRET_NAME = re.compile(r"(SECRET|PASSWORD|PASSWD|PRIVATE_KEY|API_KEY|CREDENTIAL|(^|_)TOKEN(_PREVIOUS)?$|(^|_)MONGO_URL$)")
# scheme://user:password@host
URL_CREDENTIALS = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@", re.IGNORECASE)
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", "Pod"}


@dataclass(frozen=True)
class Violation:
    rule: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule:<15} {self.where}: {self.message}"


def load_documents(paths: Iterable[str]) -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in paths:
        text = sys.stdin.read() if path == "-" else pathlib.Path(path).read_text(encoding="utf-8")
        docs.extend(d for d in yaml.safe_load_all(text) if isinstance(d, dict))
    return docs


def object_name(doc: dict[str, Any]) -> str:
    meta = doc.get("metadata") or {}
    namespace = meta.get("namespace")
    return f"{doc.get('kind')}/{namespace + '/' if namespace else ''}{meta.get('name')}"


def pod_spec(doc: dict[str, Any]) -> dict[str, Any] | None:
    kind = doc.get("kind")
    if kind not in WORKLOAD_KINDS:
        return None
    spec = doc.get("spec") or {}
    if kind == "Pod":
        return spec
    if kind == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec")) or {}
    return ((spec.get("template") or {}).get("spec")) or {}


def containers(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for field in ("initContainers", "containers"):
        for container in spec.get(field) or []:
            yield field, container


def check_resources(container: dict[str, Any]) -> list[str]:
    resources = container.get("resources") or {}
    missing = [
        f"{section}.{name}"
        for section in ("requests", "limits")
        for name in ("cpu", "memory")
        if (resources.get(section) or {}).get(name) in (None, "")
    ]
    return [f"missing resources {', '.join(missing)}"] if missing else []


def check_non_root(pod: dict[str, Any], container: dict[str, Any]) -> list[str]:
    pod_sc = pod.get("securityContext") or {}
    sc = container.get("securityContext") or {}
    problems = []

    def effective(key: str) -> Any:
        return sc[key] if key in sc else pod_sc.get(key)

    if effective("runAsNonRoot") is not True:
        problems.append("runAsNonRoot is not true")
    if effective("runAsUser") == 0:
        problems.append("runAsUser is 0")
    if sc.get("privileged") is True:
        problems.append("privileged")
    if sc.get("allowPrivilegeEscalation") is not False:
        problems.append("allowPrivilegeEscalation is not false")
    if "ALL" not in ((sc.get("capabilities") or {}).get("drop") or []):
        problems.append("capabilities do not drop ALL")
    seccomp = (effective("seccompProfile") or {}).get("type")
    if seccomp not in ("RuntimeDefault", "Localhost"):
        problems.append("seccompProfile is not RuntimeDefault or Localhost")
    return problems


def check_read_only_root(container: dict[str, Any]) -> list[str]:
    if (container.get("securityContext") or {}).get("readOnlyRootFilesystem") is not True:
        return ["readOnlyRootFilesystem is not true"]
    return []


def check_image(container: dict[str, Any]) -> list[str]:
    image = str(container.get("image") or "")
    if not image:
        return ["no image"]
    if "@" in image:
        return []
    last = image.rsplit("/", 1)[-1]
    if ":" not in last:
        return [f"image {image} has no tag"]
    if last.rsplit(":", 1)[1] == "latest":
        return [f"image {image} uses the latest tag"]
    return []


def check_probes(container: dict[str, Any]) -> list[str]:
    missing = [p for p in ("livenessProbe", "readinessProbe", "startupProbe") if not container.get(p)]
    return [f"missing {', '.join(missing)}"] if missing else []


def check_env(container: dict[str, Any]) -> list[str]:
    problems = []
    for var in container.get("env") or []:
        name = str(var.get("name", ""))
        value_from = var.get("valueFrom") or {}
        if "value" in var and URL_CREDENTIALS.search(str(var["value"])):
            problems.append(f"env {name} has credentials in a URL")
        if SECRET_NAME.search(name) and "secretKeyRef" not in value_from:
            problems.append(f"env {name} is a secret but not taken from a Secret (secretKeyRef)")
    return problems


def check_config_map(doc: dict[str, Any]) -> list[str]:
    problems = []
    for key, value in (doc.get("data") or {}).items():
        if SECRET_NAME.search(str(key)):
            problems.append(f"key {key} is a secret in a ConfigMap")
        if URL_CREDENTIALS.search(str(value)):
            problems.append(f"key {key} has credentials in a URL")
    return problems


TRUST_PROXY_HOPS = "GATEWAY_TRUST_PROXY_HOPS"


def routed_service_names(docs: list[dict[str, Any]]) -> set[str]:
    """Services an Ingress or an HTTPRoute sends outside traffic to."""
    names: set[str] = set()
    for doc in docs:
        spec = doc.get("spec") or {}
        if doc.get("kind") == "Ingress":
            backends = [spec.get("defaultBackend") or {}]
            for rule in spec.get("rules") or []:
                backends += [p.get("backend") or {} for p in ((rule.get("http") or {}).get("paths") or [])]
            names |= {str((b.get("service") or {}).get("name")) for b in backends if b.get("service")}
        if doc.get("kind") == "HTTPRoute":
            for rule in spec.get("rules") or []:
                names |= {str(ref.get("name")) for ref in rule.get("backendRefs") or [] if ref.get("kind", "Service") == "Service"}
    return names


def proxy_hops(container: dict[str, Any], config_maps: dict[str, dict[str, Any]]) -> str | None:
    """The container's GATEWAY_TRUST_PROXY_HOPS as Kubernetes resolves it (env over envFrom)."""
    value = None
    for source in container.get("envFrom") or []:
        ref = (source.get("configMapRef") or {}).get("name")
        data = (config_maps.get(str(ref)) or {}).get("data") or {}
        if TRUST_PROXY_HOPS in data:
            value = str(data[TRUST_PROXY_HOPS])
    for var in container.get("env") or []:
        if var.get("name") == TRUST_PROXY_HOPS and "value" in var:
            value = str(var["value"])
    return value


def check_trust_proxy(docs: list[dict[str, Any]]) -> list[Violation]:
    """Every workload selected by a routed Service trusts at least one proxy hop."""
    routed = routed_service_names(docs)
    selectors = [
        (doc.get("spec") or {}).get("selector") or {}
        for doc in docs
        if doc.get("kind") == "Service" and (doc.get("metadata") or {}).get("name") in routed
    ]
    config_maps = {str((d.get("metadata") or {}).get("name")): d for d in docs if d.get("kind") == "ConfigMap"}
    violations = []
    for doc in docs:
        spec = pod_spec(doc)
        labels = ((((doc.get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels")) or {}
        if spec is None or not any(sel and sel.items() <= labels.items() for sel in selectors):
            continue
        for field, container in containers(spec):
            if field != "containers":
                continue
            hops = proxy_hops(container, config_maps)
            if hops is None or not hops.isdigit() or int(hops) < 1:
                violations.append(Violation(
                    "trust-proxy",
                    f"{object_name(doc)} container {container.get('name')}",
                    f"behind an Ingress but {TRUST_PROXY_HOPS} is {hops or 'unset (0)'}: set the ingress's hop count",
                ))
    return violations


def check_secret_inventory(workload: str, spec: dict[str, Any]) -> list[str]:
    problems = []

    def allowed(secret: str, key: str, how: str) -> None:
        holders = SECRET_INVENTORY.get((secret, key))
        if holders is None:
            problems.append(f"{how} {secret}/{key} is not in the secret inventory")
        elif workload not in holders:
            problems.append(f"{how} {secret}/{key} may only reach {', '.join(sorted(holders))}")

    for _, container in containers(spec):
        for var in container.get("env") or []:
            ref = (var.get("valueFrom") or {}).get("secretKeyRef")
            if ref:
                allowed(str(ref.get("name")), str(ref.get("key")), f"env {var.get('name')} from")
        for source in container.get("envFrom") or []:
            if source.get("secretRef"):
                problems.append(f"envFrom takes every key of Secret {source['secretRef'].get('name')}; reference keys one by one")
    for volume in spec.get("volumes") or []:
        sources = [volume.get("secret")] if volume.get("secret") else []
        sources += [p.get("secret") for p in ((volume.get("projected") or {}).get("sources") or []) if p.get("secret")]
        for secret in sources:
            name = str(secret.get("secretName") or secret.get("name"))
            items = secret.get("items") or []
            if not items:
                problems.append(f"volume {volume.get('name')} mounts every key of Secret {name}; list its items")
            for item in items:
                allowed(name, str(item.get("key")), f"volume {volume.get('name')} mounts")
    return problems


def check(docs: list[dict[str, Any]]) -> tuple[list[Violation], int]:
    violations: list[Violation] = []
    checked = 0
    for doc in docs:
        where = object_name(doc)
        kind = doc.get("kind")
        if kind == "Secret" and (doc.get("data") or doc.get("stringData")):
            violations.append(Violation("inline-secret", where, "Secret with values in the manifests (create it out of band)"))
        if kind == "ConfigMap":
            violations += [Violation("inline-secret", where, m) for m in check_config_map(doc)]
        spec = pod_spec(doc)
        if spec is None:
            continue
        if kind == "Deployment" and spec.get("enableServiceLinks") is not False:
            violations.append(Violation("service-links", where, "enableServiceLinks is not false"))
        workload = str((doc.get("metadata") or {}).get("name"))
        violations += [Violation("secret-inventory", where, m) for m in check_secret_inventory(workload, spec)]
        for field, container in containers(spec):
            checked += 1
            at = f"{where} {field[:-1]} {container.get('name')}"
            violations += [Violation("resources", at, m) for m in check_resources(container)]
            violations += [Violation("non-root", at, m) for m in check_non_root(spec, container)]
            violations += [Violation("read-only-root", at, m) for m in check_read_only_root(container)]
            violations += [Violation("image-tag", at, m) for m in check_image(container)]
            violations += [Violation("inline-secret", at, m) for m in check_env(container)]
            if kind == "Deployment" and field == "containers":
                violations += [Violation("probes", at, m) for m in check_probes(container)]
    violations += check_trust_proxy(docs)
    return violations, checked


def expected_rules(path: pathlib.Path) -> set[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#\s*expect:\s*(.*)$", line)
        if match:
            rules = {r.strip() for r in match.group(1).split(",") if r.strip() and r.strip() != "none"}
            unknown = rules - set(RULES)
            if unknown:
                raise SystemExit(f"{path}: unknown rule(s) in expect: {', '.join(sorted(unknown))}")
            return rules
    raise SystemExit(f"{path}: no '# expect:' header")


def self_test() -> int:
    fixtures = sorted((pathlib.Path(__file__).parent / "fixtures").glob("*.yaml"))
    failures = 0
    proven: set[str] = set()
    for path in fixtures:
        expected = expected_rules(path)
        violations, _ = check(load_documents([str(path)]))
        found = {v.rule for v in violations}
        ok = found == expected
        proven |= found & expected
        failures += 0 if ok else 1
        status = "ok  " if ok else "FAIL"
        print(f"  {status} {path.name}: expected {sorted(expected) or 'none'}, found {sorted(found) or 'none'}")
        if not ok:
            for v in violations:
                print(f"         {v}")
    unproven = [r for r in RULES if r not in proven]
    if unproven:
        print(f"  FAIL no fixture makes these rules fail: {', '.join(unproven)}")
        failures += 1
    print(f"policy self-test: {len(fixtures)} fixtures, {len(RULES) - len(unproven)}/{len(RULES)} rules shown to fail, "
          f"{'passed' if failures == 0 else f'{failures} failed'}")
    return 0 if failures == 0 else 1


def main(argv: list[str]) -> int:
    if argv == ["--self-test"]:
        return self_test()
    if not argv or any(a.startswith("--") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    docs = load_documents(argv)
    violations, checked = check(docs)
    for v in violations:
        print(f"  {v}")
    print(f"policy: {len(docs)} objects, {checked} containers, {len(violations)} violation(s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
