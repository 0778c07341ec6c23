import {
  LIMIT_KEYS,
  isMonthlyLimit,
  monthlyPeriod,
  type LimitKey,
  type UsageSnapshot,
} from '../domain/index.js';
import type { UsageRecord } from './ports/usage-repository.js';

/**
 * The tenant's counts at `now`: gauges as they stand, monthly counters of the current UTC month.
 * `used` includes held units, which is what `can`, the report and reserve compare.
 */
export function snapshotOf(doc: UsageRecord | null, now: Date): UsageSnapshot {
  const period = monthlyPeriod(now);
  const snapshot: Partial<Record<LimitKey, number>> = {};
  for (const key of LIMIT_KEYS) {
    const fields = isMonthlyLimit(key) ? doc?.months?.[period]?.[key] : doc?.counters?.[key];
    if (fields?.used !== undefined) snapshot[key] = fields.used;
  }
  return snapshot;
}
