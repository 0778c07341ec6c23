import { LIMIT_KEYS, RATE_LIMIT_KEYS } from '../catalogue/keys.js';
import type { LimitKey, RateLimitKey } from '../catalogue/keys.js';
import type { Tier, TierRef } from '../catalogue/tier.js';
import { tierRef } from '../catalogue/tier-lookup.js';
import { assertValidDate, rateWindowResetsAt } from './periods.js';
import { readCount } from './usage-snapshot.js';
import type { RateUsageSnapshot, UsageSnapshot } from './usage-snapshot.js';
import { buildWarnings } from './usage-warnings.js';
import type { UsageWarning, WarningInput } from './usage-warnings.js';

/** One resource limit in the report; `limit` is null exactly when `unlimited` is true. */
export interface LimitUsage {
  readonly current: number;
  readonly limit: number | null;
  readonly unlimited: boolean;
}

/** One API window in the report. */
export interface RateLimitUsage {
  readonly current: number;
  readonly limit: number;
  /** ISO 8601: the end of the current UTC window. */
  readonly resetsAt: string;
}

/** The spec's Usage report (`GET /entitlements/usage`). */
export interface UsageReport {
  readonly tier: TierRef;
  readonly limits: Readonly<Record<LimitKey, LimitUsage>>;
  /** Empty for a tier without API_ACCESS: it has no API windows to count. */
  readonly rateLimits: Readonly<Partial<Record<RateLimitKey, RateLimitUsage>>>;
  readonly warnings: readonly UsageWarning[];
}

/** Builds the usage report of a tenant on `tier` at `now`. */
export function buildUsageReport(
  tier: Tier,
  usage: UsageSnapshot,
  rateUsage: RateUsageSnapshot,
  now: Date,
): UsageReport {
  assertValidDate(now);
  const limits = {} as Record<LimitKey, LimitUsage>;
  const inputs: WarningInput[] = [];
  for (const key of LIMIT_KEYS) {
    const current = readCount(usage, key);
    const limit = tier.limits[key];
    limits[key] = { current, limit, unlimited: limit === null };
    inputs.push({ limit: key, current, max: limit });
  }
  const rateLimits: Partial<Record<RateLimitKey, RateLimitUsage>> = {};
  if (tier.capabilities.API_ACCESS) {
    for (const key of RATE_LIMIT_KEYS) {
      const current = readCount(rateUsage, key);
      const limit = tier.rateLimits[key];
      rateLimits[key] = { current, limit, resetsAt: rateWindowResetsAt(key, now) };
      // A minute window clears before anyone could act on a warning; the 429 says enough.
      if (key === 'API_REQUESTS_DAY') inputs.push({ limit: key, current, max: limit });
    }
  }
  return { tier: tierRef(tier), limits, rateLimits, warnings: buildWarnings(inputs) };
}
