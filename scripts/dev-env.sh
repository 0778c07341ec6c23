# Development defaults for the local stack and the tests. Sourced, never used in production:
# the Kubernetes manifests take every secret from a Secret.
# The values live in config/dev.env (one source: the CLI reads the same file); a variable
# already set wins.
while IFS='=' read -r tap_key tap_value; do
  case "$tap_key" in '' | '#'*) continue ;; esac
  if [ -z "${!tap_key:-}" ]; then export "$tap_key=$tap_value"; fi
done <"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/config/dev.env"
unset tap_key tap_value
export LOG_LEVEL="${LOG_LEVEL:-info}"
