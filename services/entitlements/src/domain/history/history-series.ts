import { dayNumber, dayOf, monthDays, monthOfDay, retentionStart, utcDay } from './history-dates.js';
import { historyKindOf, type HistoryKey } from './history-keys.js';
import type { HistoryQuery } from './history-query.js';

/** A month of stored points of one tenant, as the store reads it (see usage-history-repository). */
export interface HistoryMonth {
  /** `YYYY-MM`. */
  readonly month: string;
  /**
   * Each key's value when the month's first point was written, before that write: what the
   * days before it (back to the previous month's last point) read.
   */
  readonly opening?: Readonly<Partial<Record<HistoryKey, number>>>;
  /** Day of the month (`DD`) → key → value written that day (the last write of the day wins). */
  readonly days: Readonly<Record<string, Readonly<Partial<Record<HistoryKey, number>>>>>;
}

/** One point of a history: a UTC day (`YYYY-MM-DD`) or month (`YYYY-MM`) and its value. */
export interface HistoryPoint {
  readonly date: string;
  readonly value: number;
}

/**
 * The points of a history question from the tenant's stored months and today's live value (the
 * usage report's number for the key, so the last point of a range ending today is the report's).
 *
 * Each day reads the value written that day; a day with none reads, by the key's kind: a gauge
 * the value before it (the last point, or its month's `opening`), a monthly counter the same
 * within its month and 0 from the first of the next, a daily count 0. A gauge with no point at all
 * in the 13 months kept never changed in them: every day reads the live value.
 *
 * A month point is its last day in the range for a gauge or the monthly counter (month to
 * date), and the sum of its days in the range for a daily count.
 */
export function buildHistorySeries(
  query: HistoryQuery,
  months: readonly HistoryMonth[],
  live: number,
  now: Date,
): HistoryPoint[] {
  const days = dailyValues(query, months, live, now);
  if (query.granularity === 'day') return days.map(([day, value]) => ({ date: dayOf(day), value }));
  const byMonth = new Map<string, number>();
  for (const [day, value] of days) {
    const month = monthOfDay(day);
    const sum = historyKindOf(query.key) === 'daily';
    byMonth.set(month, sum ? (byMonth.get(month) ?? 0) + value : value);
  }
  return [...byMonth].map(([date, value]) => ({ date, value }));
}

/** [day number, value] for every day from query.from to query.to. */
function dailyValues(
  query: HistoryQuery,
  months: readonly HistoryMonth[],
  live: number,
  now: Date,
): [number, number][] {
  const kind = historyKindOf(query.key);
  const today = dayNumber(utcDay(now)) ?? query.to;
  const { stored, openings } = indexPoints(query.key, months);
  let carry = kind === 'gauge' ? firstOpening(openings, stored, live) : 0;
  const values: [number, number][] = [];
  for (let day = retentionStart(now); day <= query.to; day += 1) {
    const opening = openings.get(day);
    if (kind === 'gauge' && opening !== undefined) carry = opening;
    if (kind === 'monthly' && monthDays(monthOfDay(day))?.first === day) carry = 0;
    const written = day === today ? live : stored.get(day);
    const value = written ?? (kind === 'daily' ? 0 : carry);
    carry = value;
    if (day >= query.from) values.push([day, value]);
  }
  return values;
}

/** The key's points by day number, and each month's opening by its first day number. */
function indexPoints(
  key: HistoryKey,
  months: readonly HistoryMonth[],
): { stored: Map<number, number>; openings: Map<number, number> } {
  const stored = new Map<number, number>();
  const openings = new Map<number, number>();
  for (const month of months) {
    const first = monthDays(month.month)?.first;
    if (first === undefined) continue;
    const opening = month.opening?.[key];
    if (opening !== undefined) openings.set(first, opening);
    for (const [dd, values] of Object.entries(month.days)) {
      const value = values[key];
      if (value !== undefined) stored.set(first + Number(dd) - 1, value);
    }
  }
  return { stored, openings };
}

/**
 * What a gauge read before its oldest point kept: the opening of the oldest month that has one
 * (nothing changed between the start of the history and that month's first write), else the
 * live value (nothing changed at all).
 */
function firstOpening(openings: Map<number, number>, stored: Map<number, number>, live: number): number {
  const oldestOpening = [...openings].sort(([a], [b]) => a - b)[0];
  const oldestPoint = [...stored].sort(([a], [b]) => a - b)[0];
  if (oldestOpening && (!oldestPoint || oldestOpening[0] <= oldestPoint[0])) return oldestOpening[1];
  return oldestPoint ? oldestPoint[1] : live;
}
