import { buildUsageReport, getTier, type RateUsageSnapshot, type UsageReport } from '../domain/index.js';
import type { ReadOperationsDeps } from './read-deps.js';
import { snapshotOf } from './usage-snapshot.js';

/** GetUsage: the tenant's usage report at now, with the API window counts the caller passed. */
export async function getUsageReport(
  deps: ReadOperationsDeps,
  tenantId: string,
  rateUsage: RateUsageSnapshot,
): Promise<UsageReport> {
  const now = deps.now();
  const view = await deps.reads.view(tenantId);
  return buildUsageReport(getTier(view.tier.tierCode), snapshotOf(view.usage, now), rateUsage, now);
}
