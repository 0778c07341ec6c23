import { durationMs, str } from '@tap/config';
import { DEFAULT_TLS_REFRESH_INTERVAL_MS, type TlsFiles } from '@tap/grpc-kit';

/**
 * The mTLS variables every service reads (docs/configuration.md). Required: there is no
 * plaintext gRPC. Kubernetes points them at the csi-driver-spiffe volume; `npm run up` at
 * `.infra/pki/<service>/`.
 */
export const GRPC_TLS_ENV = {
  GRPC_TLS_CERT_FILE: str(),
  GRPC_TLS_KEY_FILE: str(),
  GRPC_TLS_CA_FILE: str(),
  GRPC_TLS_REFRESH_INTERVAL_MS: durationMs({ default: DEFAULT_TLS_REFRESH_INTERVAL_MS }),
};

/** The parsed GRPC_TLS_ENV as grpc-kit's TlsFiles. */
export function grpcTlsFromEnv(e: {
  GRPC_TLS_CERT_FILE: string;
  GRPC_TLS_KEY_FILE: string;
  GRPC_TLS_CA_FILE: string;
  GRPC_TLS_REFRESH_INTERVAL_MS: number;
}): TlsFiles {
  return {
    certFile: e.GRPC_TLS_CERT_FILE,
    keyFile: e.GRPC_TLS_KEY_FILE,
    caFile: e.GRPC_TLS_CA_FILE,
    refreshIntervalMs: e.GRPC_TLS_REFRESH_INTERVAL_MS,
  };
}
