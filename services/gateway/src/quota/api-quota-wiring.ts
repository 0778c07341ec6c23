import { unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { ApiRequestCountReader } from '../api-request-counts.js';
import type { ServiceClients } from '../clients.js';
import { apiQuotaRules } from '../http/plugins/api-quota.js';
import { upgradeContextFromWire as upgradeContextJson } from '@tap/contracts';
import type { QuotaSource } from './tier-quota-source.js';

/** The upgrade context shown when a tier has no API access (entitlements decides what to offer). */
export function apiAccessUpgradeContext(
  clients: ServiceClients,
): (authorization: string) => Promise<unknown> {
  return async (authorization) =>
    upgradeContextJson(
      await unaryCall(
        clients.entitlements,
        'GetUpgradeContext',
        { capability: 'API_ACCESS' },
        { authorization },
      ),
    );
}

/**
 * Reads (never charges) a tenant's API request counts from the limiter, for the usage report:
 * the sliding minute and day windows the quotas are enforced on.
 */
export function limiterRequestCounts(limiter: RateLimiter, quotas: QuotaSource): ApiRequestCountReader {
  return async (tenantId, authorization) => {
    const quota = await quotas.quota(tenantId, authorization);
    if (quota.perDay <= 0 || quota.perMinute <= 0) return undefined;
    const decision = await limiter.peek(`tenant:${tenantId}`, apiQuotaRules(quota), 1);
    if (decision.source !== 'redis') return undefined;
    const [minute, day] = decision.windows;
    return { minute: minute?.used ?? 0, day: day?.used ?? 0 };
  };
}
