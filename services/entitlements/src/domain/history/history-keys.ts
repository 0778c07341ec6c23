import { LIMIT_KEYS, type LimitKey } from '../catalogue/keys.js';

/**
 * The keys with a usage history: every resource limit and the API requests of each UTC day.
 * `API_REQUESTS_MINUTE` has none: a minute clears before a daily chart could show it.
 */
export const HISTORY_KEYS = [...LIMIT_KEYS, 'API_REQUESTS_DAY'] as const;

/** A key with a usage history. */
export type HistoryKey = (typeof HISTORY_KEYS)[number];

/** How the points of a history are grouped: one per UTC day, or one per UTC calendar month. */
export const HISTORY_GRANULARITIES = ['day', 'month'] as const;

/** `day` or `month`. */
export type HistoryGranularity = (typeof HISTORY_GRANULARITIES)[number];

/**
 * Months of history kept: the current UTC month and the twelve before it (the monthly counters
 * are kept as long). Older points are dropped by the clean-up job.
 */
export const HISTORY_MONTHS_KEPT = 13;

/** True for a key with a usage history. */
export function isHistoryKey(value: string): value is HistoryKey {
  return (HISTORY_KEYS as readonly string[]).includes(value);
}

/** True for a history key that is a resource limit (its ceiling is in the tier). */
export function isLimitHistoryKey(key: HistoryKey): key is LimitKey {
  return key !== 'API_REQUESTS_DAY';
}

/**
 * How a day's value reads when nothing was written that day:
 * - `gauge`: a standing count carries the last value before it;
 * - `monthly`: month to date, carried within its month and 0 on the first of the next;
 * - `daily`: a count of that day alone, 0.
 */
export type HistoryKind = 'gauge' | 'monthly' | 'daily';

/** The kind of a history key (see HistoryKind). */
export function historyKindOf(key: HistoryKey): HistoryKind {
  if (key === 'API_REQUESTS_DAY') return 'daily';
  if (key === 'BULK_UPLOAD_ROWS_MONTH') return 'monthly';
  return 'gauge';
}
