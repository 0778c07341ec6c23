import {
  contracts,
  type AdoptionServiceClient,
  type EntitlementsServiceClient,
  type IdentityServiceClient,
  type NotificationsServiceClient,
} from '@tap/contracts';
import { createClient, type ServiceTls } from '@tap/grpc-kit';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  readonly identity: IdentityServiceClient;
  readonly adoption: AdoptionServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  /** Webhooks, the events feed and the audit log. */
  readonly notifications: NotificationsServiceClient;
  close(): void;
}

/**
 * One long-lived mTLS gRPC channel per downstream service, as the gateway's identity (`tls`).
 * Replies are decoded per call: with thousands of tenants reading, a memo of recent replies
 * missed nearly always and cost a checksum, a copy and a deep freeze each time.
 */
export function createServiceClients(addresses: GatewayConfig['services'], tls: ServiceTls): ServiceClients {
  const loaded = contracts();
  const identity = createClient(loaded.identity.IdentityService, addresses.identity, tls);
  const adoption = createClient(loaded.adoption.AdoptionService, addresses.adoption, tls);
  const entitlements = createClient(loaded.entitlements.EntitlementsService, addresses.entitlements, tls);
  const notifications = createClient(loaded.notifications.NotificationsService, addresses.notifications, tls);
  return {
    identity,
    adoption,
    entitlements,
    notifications,
    close() {
      identity.close();
      adoption.close();
      entitlements.close();
      notifications.close();
    },
  };
}
