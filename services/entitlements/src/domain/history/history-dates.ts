import { monthlyPeriod } from '../usage/periods.js';
import { HISTORY_MONTHS_KEPT } from './history-keys.js';

/*
 * Dates of the usage history are UTC calendar days as `YYYY-MM-DD` and months as `YYYY-MM`
 * (both sort as text). Days are counted as whole numbers since the epoch inside this module.
 */

const MS_PER_DAY = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;

/** The UTC day `at` falls in, as `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` that names a real calendar day; undefined otherwise. */
export function dayNumber(day: string): number | undefined {
  const match = DAY_PATTERN.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, date);
  // Date.UTC rolls 2026-02-31 over into March: a real day survives the round trip.
  return utcDay(new Date(ms)) === day && year >= 1970 ? ms / MS_PER_DAY : undefined;
}

/** The `YYYY-MM-DD` of a day number. */
export function dayOf(number: number): string {
  return utcDay(new Date(number * MS_PER_DAY));
}

/** First and last day number of a `YYYY-MM` that names a real month; undefined otherwise. */
export function monthDays(month: string): { first: number; last: number } | undefined {
  const match = MONTH_PATTERN.exec(month);
  if (!match) return undefined;
  const [year, index] = [Number(match[1]), Number(match[2]) - 1];
  if (index < 0 || index > 11 || year < 1970) return undefined;
  return {
    first: Date.UTC(year, index, 1) / MS_PER_DAY,
    last: Date.UTC(year, index + 1, 0) / MS_PER_DAY,
  };
}

/** The `YYYY-MM` of a day number. */
export function monthOfDay(number: number): string {
  return dayOf(number).slice(0, 7);
}

/** The first day kept at `now`: the first of the month HISTORY_MONTHS_KEPT − 1 months back. */
export function retentionStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (HISTORY_MONTHS_KEPT - 1), 1) / MS_PER_DAY;
}

/** The oldest month kept at `now` (`YYYY-MM`): months before it are dropped by the clean-up job. */
export function oldestMonthKept(now: Date): string {
  return monthlyPeriod(new Date(retentionStart(now) * MS_PER_DAY));
}

/** The months (`YYYY-MM`) that days `from`..`to` (day numbers) touch, oldest first. */
export function monthsBetween(from: number, to: number): string[] {
  const months: string[] = [];
  for (let day = from; day <= to;) {
    const month = monthOfDay(day);
    months.push(month);
    day = (monthDays(month)?.last ?? day) + 1;
  }
  return months;
}
