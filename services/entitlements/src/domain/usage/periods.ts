import { entitlementErrors } from '../errors.js';
import type { RateLimitKey } from '../catalogue/keys.js';

/*
 * Every boundary is UTC: tenants span time zones, and a boundary that moved with the caller's
 * zone would let two services disagree about which month a row belongs to.
 */

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** Throws INVALID_TIMESTAMP unless `value` is a Date holding a real instant. */
export function assertValidDate(value: Date, field = 'now'): void {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw entitlementErrors.create('INVALID_TIMESTAMP', { details: { field } });
  }
}

/** Parses an ISO 8601 timestamp; throws INVALID_TIMESTAMP for anything unparseable. */
export function parseTimestamp(value: string, field: string): Date {
  const parsed = new Date(value);
  assertValidDate(parsed, field);
  return parsed;
}

/** The UTC calendar month `now` falls in, as `YYYY-MM` (e.g. '2026-11'); sorts as text. */
export function monthlyPeriod(now: Date): string {
  assertValidDate(now);
  const year = String(now.getUTCFullYear()).padStart(4, '0');
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${year}-${month}`;
}

/** When monthly counters start again: 00:00:00.000 UTC on the first of the next month (ISO). */
export function monthlyResetsAt(now: Date): string {
  assertValidDate(now);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** End of the UTC day `now` falls in: when the API_REQUESTS_DAY window resets (ISO). */
export function dayWindowResetsAt(now: Date): string {
  return nextBoundary(now, MS_PER_DAY);
}

/** End of the UTC minute `now` falls in: when the API_REQUESTS_MINUTE window resets (ISO). */
export function minuteWindowResetsAt(now: Date): string {
  return nextBoundary(now, MS_PER_MINUTE);
}

/** When the window of a rate-limit key resets, for `resetsAt` and `X-RateLimit-Reset`. */
export function rateWindowResetsAt(key: RateLimitKey, now: Date): string {
  return key === 'API_REQUESTS_DAY' ? dayWindowResetsAt(now) : minuteWindowResetsAt(now);
}

function nextBoundary(now: Date, windowMs: number): string {
  assertValidDate(now);
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return new Date(start + windowMs).toISOString();
}
