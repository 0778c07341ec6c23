import {
  contracts,
  type AdoptionServiceClient,
  type EntitlementsServiceClient,
  type IdentityServiceClient,
  type NotificationsServiceClient,
} from '@tap/contracts';
import { createClient, type ReplyMemoBounds, type ServiceTls } from '@tap/grpc-kit';
import type { GatewayConfig } from './config.js';

export interface ServiceClients {
  readonly identity: IdentityServiceClient;
  readonly adoption: AdoptionServiceClient;
  readonly entitlements: EntitlementsServiceClient;
  /** Webhooks, the events feed and the audit log (never memoised: every answer is fresh). */
  readonly notifications: NotificationsServiceClient;
  close(): void;
}

/**
 * Per read method of adoption and entitlements: the decoded replies the gateway keeps, so that
 * a read whose answer did not change is neither decoded nor serialised again (http/reply-json-memo.ts).
 * 256 replies and 1 MiB of reply bytes a method: 64 busy tenants' states are about 0.4 MiB.
 */
export const GATEWAY_REPLY_MEMO: ReplyMemoBounds = { maxEntries: 256, maxBytes: 1024 * 1024 };

/**
 * One long-lived mTLS gRPC channel per downstream service, as the gateway's identity (`tls`);
 * the replies of adoption's and entitlements' reads are memoised within GATEWAY_REPLY_MEMO.
 */
export function createServiceClients(addresses: GatewayConfig['services'], tls: ServiceTls): ServiceClients {
  const loaded = contracts();
  const identity = createClient(loaded.identity.IdentityService, addresses.identity, tls);
  const memo = { memoiseReplies: GATEWAY_REPLY_MEMO };
  const adoption = createClient(loaded.adoption.AdoptionService, addresses.adoption, tls, memo);
  const entitlements = createClient(
    loaded.entitlements.EntitlementsService,
    addresses.entitlements,
    tls,
    memo,
  );
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
