import { entitlementErrors } from '../errors.js';
import type { LimitKey, RateLimitKey } from '../catalogue/keys.js';

/**
 * A tenant's consumption per limit key, as the store reads it at `now`: gauges as they stand,
 * BULK_UPLOAD_ROWS_MONTH for the current UTC month. Counts include units held by open
 * reservations (they are promised to operations in flight). A missing key counts as 0.
 */
export type UsageSnapshot = Readonly<Partial<Record<LimitKey, number>>>;

/** Requests counted in the current API windows (from the gateway's limiter); missing = 0. */
export type RateUsageSnapshot = Readonly<Partial<Record<RateLimitKey, number>>>;

/** True for a whole number from 0 up to Number.MAX_SAFE_INTEGER. */
export function isNonNegativeSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The count stored under `key`, 0 when absent; throws INVALID_USAGE_COUNT for a corrupt value. */
export function readCount<K extends string>(snapshot: Readonly<Partial<Record<K, number>>>, key: K): number {
  const value: unknown = snapshot[key];
  if (value === undefined) return 0;
  if (!isNonNegativeSafeInteger(value)) {
    throw entitlementErrors.create('INVALID_USAGE_COUNT', { details: { key, value: describeValue(value) } });
  }
  return value;
}

/** A bad input as error details may carry it: numbers as they are, anything else by type. */
export function describeValue(value: unknown): number | string {
  return typeof value === 'number' ? value : typeof value;
}
