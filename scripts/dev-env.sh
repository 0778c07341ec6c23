# Development defaults for the local stack and the tests. Sourced, never used in production:
# the Kubernetes manifests take every secret from a Secret.
export OPERATOR_TOKEN="${OPERATOR_TOKEN:-dev-operator-token-not-for-production-000}"
export KEY_ENCRYPTION_SECRET="${KEY_ENCRYPTION_SECRET:-dev-key-encryption-secret-not-for-production}"
export LOG_LEVEL="${LOG_LEVEL:-info}"
