import {
  buildHistorySeries,
  dayOf,
  getTier,
  isLimitHistoryKey,
  monthsBetween,
  parseHistoryQuery,
  retentionStart,
  type HistoryGranularity,
  type HistoryKey,
  type HistoryPoint,
  type HistoryQueryInput,
  type RateUsageSnapshot,
} from '../domain/index.js';
import { usageReportOf } from './get-usage-report.js';
import type { UsageHistoryRepository } from './ports/usage-history-repository.js';
import type { ReadOperationsDeps } from './read-deps.js';
import { readTenantView } from './tenant-view.js';

/** A key's history as GetUsageHistory answers it. */
export interface UsageHistory {
  readonly key: HistoryKey;
  readonly granularity: HistoryGranularity;
  /** `YYYY-MM-DD`: the days covered, after defaults. */
  readonly from: string;
  readonly to: string;
  /** The tier's current ceiling; null exactly when unlimited. */
  readonly limit: number | null;
  readonly unlimited: boolean;
  readonly points: readonly HistoryPoint[];
}

export interface UsageHistoryDeps extends ReadOperationsDeps {
  readonly history: UsageHistoryRepository;
}

/**
 * GetUsageHistory: the stored points of the tenant's months in the 13 kept, with today's point
 * taken from the usage report built from the same view as GetUsage (so the last point of a range
 * ending today is the report's number). Reads only: nothing is recomputed from events or written.
 */
export async function getUsageHistory(
  deps: UsageHistoryDeps,
  tenantId: string,
  input: HistoryQueryInput,
  rateUsage: RateUsageSnapshot,
): Promise<UsageHistory> {
  const now = deps.now();
  const query = parseHistoryQuery(input, now);
  const view = await readTenantView(deps, tenantId);
  const report = usageReportOf(view, rateUsage, now);
  const tier = getTier(view.tier.tierCode);
  const { key } = query;
  const ceiling = isLimitHistoryKey(key)
    ? report.limits[key]
    : { current: rateUsage.API_REQUESTS_DAY ?? 0, limit: tier.rateLimits.API_REQUESTS_DAY, unlimited: false };
  const stored = await deps.history.months(tenantId, key, monthsBetween(retentionStart(now), query.to));
  return {
    key,
    granularity: query.granularity,
    from: dayOf(query.from),
    to: dayOf(query.to),
    limit: ceiling.limit,
    unlimited: ceiling.unlimited,
    points: buildHistorySeries(query, stored, ceiling.current, now),
  };
}
