import {
  contracts,
  type AdoptionServiceClient,
  type EntitlementsServiceClient,
  type IdentityServiceClient,
} from '@tap/contracts';
import { createClient, type ServiceTls } from '@tap/grpc-kit';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  readonly identity: IdentityServiceClient;
  readonly adoption: AdoptionServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  close(): void;
}

/** One long-lived mTLS gRPC channel per downstream service, as the gateway's identity (`tls`). */
export function createServiceClients(addresses: GatewayConfig['services'], tls: ServiceTls): ServiceClients {
  const loaded = contracts();
  const identity = createClient(loaded.identity.IdentityService, addresses.identity, tls);
  const adoption = createClient(loaded.adoption.AdoptionService, addresses.adoption, tls);
  const entitlements = createClient(loaded.entitlements.EntitlementsService, addresses.entitlements, tls);
  return {
    identity,
    adoption,
    entitlements,
    close() {
      identity.close();
      adoption.close();
      entitlements.close();
    },
  };
}
