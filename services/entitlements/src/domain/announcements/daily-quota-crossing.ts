import { TIERS } from '../catalogue/tiers.js';
import { thresholdLevel } from './usage-thresholds.js';

/** Every tier's daily API quota that has thresholds (the catalogue is static, so this is fixed). */
const DAILY_QUOTAS: readonly number[] = [
  ...new Set(Object.values(TIERS).map((tier) => tier.rateLimits.API_REQUESTS_DAY)),
].filter((limit) => limit > 0);

/**
 * Whether a tenant's API request count of the day, moving from `before` to `after`, may have
 * crossed a threshold of its daily quota, whatever its tier: true when it changed level against
 * any tier's quota. An unknown `before` (a restart, a new day) counts as 0: a count below every
 * tier's first threshold has nothing to announce, and one past a threshold is marked, since a
 * restart cannot tell whether it was. A day's count only rises, so nothing is ever cleared within
 * it. The copy of the gateway's counts marks a tenant for the announcement pass only then, so a
 * thousand calling tenants cost one write each a minute, not a pass over their usage each.
 */
export function mayCrossDailyQuotaThreshold(before: number | undefined, after: number): boolean {
  const from = before ?? 0;
  return DAILY_QUOTAS.some((limit) => thresholdLevel(from, limit) !== thresholdLevel(after, limit));
}
