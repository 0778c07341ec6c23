import type { EntitlementsServiceClient } from '@tap/contracts';
import { readModelNoticeSubject, subscribeChangeNotices, whileHeard } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { createVersionedCache, HEARD_READ_MODEL_TTL_MS } from '@tap/runtime';

/** A tenant's API request quotas, as entitlements (the owner of tiers) states them. */
export interface ApiQuota {
  readonly tierCode: string;
  readonly perMinute: number;
  readonly perDay: number;
}

export interface QuotaSource {
  quota(tenantId: string, authorization: string): Promise<ApiQuota>;
  /** Entitlements announced a change of the tenant (a tier change among them): ask again. */
  changed(tenantId: string): void;
  /** Whether entitlements' change notices can reach this gateway now (see listenForTierChanges). */
  setListening(listening: boolean): void;
}

/**
 * How long the gateway trusts a tenant's tier before asking entitlements again while it does not
 * hear entitlements' change notices (no NATS yet, or a gap): a tier change made with
 * `tap set-tier` reaches the quotas within this time. While the notices are heard, a tier change
 * drops the tenant's quota at once, and a quota is kept `heardTtlMs`.
 */
export const DEFAULT_TIER_CACHE_MS = 1_000;
const MAX_CACHED_TENANTS = 50_000;

/**
 * Quotas from entitlements' GetTier (asked with the caller's own token), cached per tenant so that
 * the hot path costs no gRPC call: concurrent misses share one call, a busy tenant is asked again
 * behind its requests (refresh ahead), and entitlements' change notices drop a tenant at once.
 * Without the notices the cache holds `ttlMs`; with them `heardTtlMs`. With a thousand tenants
 * asking about once a second each, a 1 s cache alone missed on nearly every request.
 */
export function tierQuotaSource(
  entitlements: EntitlementsServiceClient,
  options: { ttlMs?: number; heardTtlMs?: number; now?: () => number } = {},
): QuotaSource {
  const cache = createVersionedCache<ApiQuota, string>({
    load: async (_tenantId, authorization) => {
      const tier = await unaryCall(entitlements, 'GetTier', {}, { authorization });
      return {
        tierCode: tier.tierCode,
        perMinute: Number(tier.apiRequestsPerMinute),
        perDay: Number(tier.apiRequestsPerDay),
      };
    },
    versionOf: () => 0,
    ttlMs: options.ttlMs ?? DEFAULT_TIER_CACHE_MS,
    heardTtlMs: options.heardTtlMs ?? HEARD_READ_MODEL_TTL_MS,
    maxEntries: MAX_CACHED_TENANTS,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return {
    quota: (tenantId, authorization) => cache.view(tenantId, authorization),
    changed: (tenantId) => cache.changed(tenantId),
    setListening: (listening) => cache.setListening(listening),
  };
}

/** What the listener needs of a NATS connection (the gateway only ever subscribes). */
type NoticeConnection = Parameters<typeof subscribeChangeNotices>[0] & Parameters<typeof whileHeard>[0];

/**
 * Hands entitlements' change notices (`<prefix>-cache.entitlements`, sent on every tier change and
 * usage write) to `quotas`, and tells it whether they can arrive. A notice is never trusted for
 * more than dropping a quota: a forged one costs a GetTier. Returns stop.
 */
export function listenForTierChanges(
  nc: NoticeConnection,
  subjectPrefix: string,
  quotas: QuotaSource,
): () => void {
  const subscription = subscribeChangeNotices(
    nc,
    readModelNoticeSubject(subjectPrefix, 'entitlements'),
    (n) => quotas.changed(n.tenantId),
  );
  const stopHearing = whileHeard(nc, (listening) => quotas.setListening(listening));
  return () => {
    stopHearing();
    subscription.unsubscribe();
  };
}
