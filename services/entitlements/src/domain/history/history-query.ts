import { entitlementErrors } from '../errors.js';
import { assertValidDate } from '../usage/periods.js';
import { dayNumber, monthDays, monthOfDay, retentionStart, utcDay } from './history-dates.js';
import {
  HISTORY_GRANULARITIES,
  isHistoryKey,
  type HistoryGranularity,
  type HistoryKey,
} from './history-keys.js';

/** A history question as it arrives: every field a string, dates optional. */
export interface HistoryQueryInput {
  readonly key: string;
  /** `YYYY-MM-DD`, or `YYYY-MM` for the first day of that month. */
  readonly from?: string | undefined;
  /** `YYYY-MM-DD`, or `YYYY-MM` for the last day of that month (today at the latest). */
  readonly to?: string | undefined;
  /** `day` (default) or `month`. */
  readonly granularity?: string | undefined;
}

/** A checked history question: days as day numbers (see history-dates.ts), from ≤ to ≤ today. */
export interface HistoryQuery {
  readonly key: HistoryKey;
  readonly granularity: HistoryGranularity;
  readonly from: number;
  readonly to: number;
}

/** Points a day history answers when `from` is not given: the last 30 days. */
export const DEFAULT_HISTORY_DAYS = 30;

/**
 * Checks a history question at `now`. Defaults: granularity `day`; `to` today; `from` 29 days
 * before `to` for days, or the first of the month 12 months before `to` for months, never before
 * the oldest day kept. Throws INVALID_HISTORY_QUERY naming the field for: an unknown key or
 * granularity, a date that is not a real `YYYY-MM-DD` / `YYYY-MM`, `to` after today, `from`
 * before the 13 months kept, `from` after `to`.
 */
export function parseHistoryQuery(input: HistoryQueryInput, now: Date): HistoryQuery {
  assertValidDate(now);
  if (!isHistoryKey(input.key)) refuse('key', `unknown key "${clip(input.key)}"`);
  const granularity = parseGranularity(input.granularity);
  const today = dayNumber(utcDay(now)) ?? 0;
  const oldest = retentionStart(now);
  const to = input.to === undefined ? today : parseTo(input.to, today);
  const from =
    input.from === undefined
      ? Math.min(to, Math.max(oldest, defaultFrom(granularity, to)))
      : parseDay(input.from, 'from', 'first');
  if (from < oldest) refuse('from', `history is kept from ${monthOfDay(oldest)}-01 (13 months)`);
  if (from > to) refuse('from', '"from" is after "to"');
  return { key: input.key, granularity, from, to };
}

function parseGranularity(value: string | undefined): HistoryGranularity {
  if (value === undefined) return 'day';
  const known = HISTORY_GRANULARITIES.find((g) => g === value);
  if (!known) refuse('granularity', 'granularity must be "day" or "month"');
  return known;
}

/** A `YYYY-MM-DD`, or the first or last day of a `YYYY-MM`. */
function parseDay(value: string, field: string, end: 'first' | 'last'): number {
  const day = dayNumber(value);
  if (day !== undefined) return day;
  const month = monthDays(value);
  if (month) return month[end];
  return refuse(field, 'expected a date as YYYY-MM-DD or a month as YYYY-MM');
}

/** `to` may name today's month (it then ends today) but no day after today. */
function parseTo(value: string, today: number): number {
  const last = parseDay(value, 'to', 'last');
  const month = monthDays(value);
  if ((month ? month.first : last) > today) refuse('to', '"to" is after today (UTC)');
  return Math.min(last, today);
}

function defaultFrom(granularity: HistoryGranularity, to: number): number {
  if (granularity === 'day') return to - (DEFAULT_HISTORY_DAYS - 1);
  const [year, month] = monthOfDay(to).split('-').map(Number);
  return Date.UTC(year ?? 1970, (month ?? 1) - 1 - 12, 1) / 86_400_000;
}

function refuse(field: string, reason: string): never {
  throw entitlementErrors.create('INVALID_HISTORY_QUERY', {
    message: `Invalid ${field}: ${reason}.`,
    details: { field, reason },
  });
}

// An echoed key is cut short: it is the caller's input, not ours to repeat at length.
function clip(value: string): string {
  return value.length > 64 ? `${value.slice(0, 64)}…` : value;
}
