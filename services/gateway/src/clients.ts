import {
  contracts,
  type AdoptionServiceClient,
  type EntitlementsServiceClient,
  type IdentityServiceClient,
} from '@tap/contracts';
import { createClient } from '@tap/grpc-kit';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  readonly identity: IdentityServiceClient;
  readonly adoption: AdoptionServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  close(): void;
}

/** One long-lived gRPC channel per downstream service. */
export function createServiceClients(addresses: GatewayConfig['services']): ServiceClients {
  const loaded = contracts();
  const identity = createClient(loaded.identity.IdentityService, addresses.identity);
  const adoption = createClient(loaded.adoption.AdoptionService, addresses.adoption);
  const entitlements = createClient(loaded.entitlements.EntitlementsService, addresses.entitlements);
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
