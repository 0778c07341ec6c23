import { contracts, type EntitlementsServiceClient, type IdentityServiceClient } from '@tap/contracts';
import { createClient } from '@tap/grpc-kit';
import type { CliConfig } from './cli-config.js';

export interface OperatorClients {
  readonly identity: IdentityServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  readonly authorization: string;
  close(): void;
}

/** gRPC clients that present the operator credential. */
export function operatorClients(config: CliConfig): OperatorClients {
  const identity = createClient(contracts().identity.IdentityService, config.identityAddress);
  const entitlements = createClient(contracts().entitlements.EntitlementsService, config.entitlementsAddress);
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
