import { entitlementErrors } from '../errors.js';
import type { LimitKey } from '../catalogue/keys.js';
import type { Tier } from '../catalogue/tier.js';
import { describeValue, isNonNegativeSafeInteger, readCount } from '../usage/usage-snapshot.js';
import type { UsageSnapshot } from '../usage/usage-snapshot.js';
import { canActionRule } from './can-actions.js';

/** The numbers behind a LIMIT_EXCEEDED answer (spec: `details` of `POST /entitlements/can`). */
export interface CanDetails {
  /** The limit key, e.g. BULK_UPLOAD_ROWS_MONTH. */
  readonly limit: LimitKey;
  readonly current: number;
  readonly requested: number;
  /** What is left under the limit; never negative, 0 when already over it. */
  readonly available: number;
}

/** Why `can` said no: a resource ceiling, or a feature the tier lacks. */
export type CanReason = 'LIMIT_EXCEEDED' | 'CAPABILITY_NOT_IN_TIER';

/** The answer of `can`; `details` is present exactly when a limit refused. */
export type CanDecision =
  | { readonly allowed: true; readonly reason: null }
  | { readonly allowed: false; readonly reason: 'LIMIT_EXCEEDED'; readonly details: CanDetails }
  | { readonly allowed: false; readonly reason: 'CAPABILITY_NOT_IN_TIER' };

/** Throws INVALID_RESOURCE_COUNT unless `value` is a non-negative safe integer. */
export function assertResourceCount(value: unknown): asserts value is number {
  if (!isNonNegativeSafeInteger(value)) {
    throw entitlementErrors.create('INVALID_RESOURCE_COUNT', {
      details: { resourceCount: describeValue(value) },
    });
  }
}

/**
 * Whether the tenant may spend `resourceCount` units of `action` now. The capability is
 * checked first (a missing feature is the real reason, even where its limit is 0). A count
 * of 0 is a probe: allowed while the tenant is within the limit, refused once it is over it.
 */
export function evaluateCan(
  tier: Tier,
  usage: UsageSnapshot,
  action: string,
  resourceCount: number,
): CanDecision {
  const rule = canActionRule(action);
  assertResourceCount(resourceCount);
  if (rule.capability !== null && !tier.capabilities[rule.capability]) {
    return { allowed: false, reason: 'CAPABILITY_NOT_IN_TIER' };
  }
  return checkLimit(tier, rule.limit, readCount(usage, rule.limit), resourceCount);
}

/** The limit half of `can`, for callers that already hold the current count. */
export function checkLimit(tier: Tier, limit: LimitKey, current: number, requested: number): CanDecision {
  const ceiling = tier.limits[limit];
  if (ceiling === null || current + requested <= ceiling) return { allowed: true, reason: null };
  const available = Math.max(0, ceiling - current);
  return { allowed: false, reason: 'LIMIT_EXCEEDED', details: { limit, current, requested, available } };
}
