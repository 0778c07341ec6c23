import { contracts, type EntitlementsServiceClient, type IdentityServiceClient } from '@tap/contracts';
import { createClient, ServiceTlsError, tlsFromFiles, type ServiceTls } from '@tap/grpc-kit';
import type { CliConfig } from './cli-config.js';

export interface OperatorClients {
  readonly identity: IdentityServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  readonly authorization: string;
  close(): void;
}

function operatorTls(config: CliConfig): ServiceTls {
  try {
    return tlsFromFiles(config.grpcTls);
  } catch (error) {
    if (!(error instanceof ServiceTlsError)) throw error;
    throw new Error(
      `${error.message}. The operator certificate: run \`npm run up\` once (it makes .infra/pki), or set ` +
        'GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE',
      { cause: error },
    );
  }
}

/** gRPC clients with the operator's certificate (mTLS) that also present the operator credential. */
export function operatorClients(config: CliConfig): OperatorClients {
  const tls = operatorTls(config);
  const identity = createClient(contracts().identity.IdentityService, config.identityAddress, tls);
  const entitlements = createClient(
    contracts().entitlements.EntitlementsService,
    config.entitlementsAddress,
    tls,
  );
  return {
    identity,
    entitlements,
    authorization: `Operator ${config.operatorToken}`,
    close() {
      identity.close();
      entitlements.close();
    },
  };
}
