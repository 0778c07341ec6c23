import type { EntitlementsServiceClient } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';

/** A tenant's API request quotas, as entitlements (the owner of tiers) states them. */
export interface ApiQuota {
  readonly tierCode: string;
  readonly perMinute: number;
  readonly perDay: number;
}

export interface QuotaSource {
  quota(tenantId: string, authorization: string): Promise<ApiQuota>;
}

/**
 * How long the gateway trusts a tenant's tier before asking entitlements again: a tier change
 * made with `tap set-tier` reaches the quotas within this time.
 */
export const DEFAULT_TIER_CACHE_MS = 1_000;
const MAX_CACHED_TENANTS = 50_000;

/**
 * Quotas from entitlements' GetTier (asked with the caller's own token), cached per tenant for
 * `ttlMs` so that the hot path costs no gRPC call; concurrent misses share one call.
 */
export function tierQuotaSource(
  entitlements: EntitlementsServiceClient,
  options: { ttlMs?: number; now?: () => number } = {},
): QuotaSource {
  const ttl = options.ttlMs ?? DEFAULT_TIER_CACHE_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { quota: Promise<ApiQuota>; expiresAt: number }>();
  return {
    quota(tenantId, authorization) {
      const cached = cache.get(tenantId);
      if (cached && cached.expiresAt > now()) return cached.quota;
      if (cache.size >= MAX_CACHED_TENANTS) cache.clear();
      const quota = unaryCall(entitlements, 'GetTier', {}, { authorization }).then((tier) => ({
        tierCode: tier.tierCode,
        perMinute: Number(tier.apiRequestsPerMinute),
        perDay: Number(tier.apiRequestsPerDay),
      }));
      cache.set(tenantId, { quota, expiresAt: now() + ttl });
      quota.catch(() => cache.delete(tenantId));
      return quota;
    },
  };
}
