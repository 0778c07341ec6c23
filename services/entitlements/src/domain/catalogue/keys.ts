import type { CapabilityKey } from '@tap/contracts';
/**
 * The three vocabularies of the tier catalogue. Their strings are part of the public API
 * (usage report keys, `can` details, upgrade-context `capability`), so they never change.
 */

/** Resource limits: object counts, plus the one monthly counter. */
export const LIMIT_KEYS = [
  'MAX_ACTIVE_PRODUCTS',
  'MAX_CONNECTIONS',
  'MAX_USERS',
  'MAX_TRACED_PRODUCTS',
  'BULK_UPLOAD_ROWS_MONTH',
] as const;

/** A resource-limit key. */
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** Limits counted per UTC calendar month; every other limit is a gauge (a standing count). */
export const MONTHLY_LIMIT_KEYS: readonly LimitKey[] = ['BULK_UPLOAD_ROWS_MONTH'];

/** Request ceilings of the API (integration traffic), per UTC day and per UTC minute. */
export const RATE_LIMIT_KEYS = ['API_REQUESTS_DAY', 'API_REQUESTS_MINUTE'] as const;

/** A rate-limit key. */
export type RateLimitKey = (typeof RATE_LIMIT_KEYS)[number];

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
