import { buildUsageReport, getTier, type RateUsageSnapshot, type UsageReport } from '../domain/index.js';
import type { EntitlementsView } from './tenant-view.js';
import { snapshotOf } from './usage-snapshot.js';

/** GetUsage: the tenant's usage report at now from its view, with the API window counts the caller passed. */
export function usageReportOf(view: EntitlementsView, rateUsage: RateUsageSnapshot, now: Date): UsageReport {
  return buildUsageReport(getTier(view.tier.tierCode), snapshotOf(view.usage, now), rateUsage, now);
}
