import {
  LIMIT_KEYS,
  RATE_LIMIT_KEYS,
  type CapabilityKey,
  type LimitKey,
  type RateLimitKey,
} from '@tap/contracts';

/*
 * The three vocabularies of the tier catalogue. Their strings are part of the public API
 * (usage report keys, `can` details, upgrade-context `capability`), so they never change: the
 * lists live in @tap/contracts, which the gateway's OpenAPI document reads too.
 */
export { LIMIT_KEYS, RATE_LIMIT_KEYS, type LimitKey, type RateLimitKey };

/** Limits counted per UTC calendar month; every other limit is a gauge (a standing count). */
export const MONTHLY_LIMIT_KEYS: readonly LimitKey[] = ['BULK_UPLOAD_ROWS_MONTH'];

// Capabilities: the one catalogue lives in @tap/contracts (adoption reads it too).
export { CAPABILITY_KEYS, isCapabilityKey, type CapabilityKey } from '@tap/contracts';

/** Any key the upgrade context answers for. */
export type EntitlementKey = LimitKey | RateLimitKey | CapabilityKey;

/** True for a resource-limit key. */
export function isLimitKey(value: string): value is LimitKey {
  return (LIMIT_KEYS as readonly string[]).includes(value);
}

/** True for a rate-limit key. */
export function isRateLimitKey(value: string): value is RateLimitKey {
  return (RATE_LIMIT_KEYS as readonly string[]).includes(value);
}

/** True for a limit counted per UTC calendar month. */
export function isMonthlyLimit(key: LimitKey): boolean {
  return MONTHLY_LIMIT_KEYS.includes(key);
}
