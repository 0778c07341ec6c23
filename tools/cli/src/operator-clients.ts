import { contracts, type EntitlementsServiceClient, type IdentityServiceClient } from '@tap/contracts';
import { createClient, tlsFromFiles } from '@tap/grpc-kit';
import type { CliConfig } from './cli-config.js';

export interface OperatorClients {
  readonly identity: IdentityServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  readonly authorization: string;
  close(): void;
}

/** gRPC clients with the operator's certificate (mTLS) that also present the operator credential. */
export function operatorClients(config: CliConfig): OperatorClients {
  const tls = tlsFromFiles(config.grpcTls);
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
