import { LIMIT_KEYS, isMonthlyLimit, type LimitKey } from '../catalogue/keys.js';
import type { CounterDelta } from '../usage/counter-delta.js';
import { monthlyPeriod } from '../usage/periods.js';
import { dayOf, monthDays, oldestMonthKept, utcDay } from './history-dates.js';
import type { HistoryKey } from './history-keys.js';

/** Points to write into one stored month of a tenant's history (one update). */
export interface HistoryWrite {
  /** `YYYY-MM`. */
  readonly month: string;
  /** Day of the month, `DD`. */
  readonly day: string;
  /** The values at the end of the write. */
  readonly values: Readonly<Partial<Record<HistoryKey, number>>>;
  /** The values before it: kept only by the month's first write (see HistoryMonth.opening). */
  readonly opening: Readonly<Partial<Record<HistoryKey, number>>>;
}

/**
 * The history points of one counter write at `now`: every resource limit as it stands after
 * the write (untouched ones too, so each day with a write is a full picture) on today, with the
 * values before it as the month's opening. Rows an event counted in an earlier month (a late
 * `import.completed`) are that month's total on its last day; months older than the history
 * keeps, or after the current one, get nothing.
 *
 * `before(key, period)` is the counter's `used` before the write; `increments` are the net
 * changes of the write, already clamped (see foldUsageBatch), so `after` is never negative.
 */
export function historyWritesAfter(
  before: (key: LimitKey, period: string | undefined) => number,
  increments: readonly CounterDelta[],
  now: Date,
): HistoryWrite[] {
  const current = monthlyPeriod(now);
  const delta = (key: LimitKey, period: string | undefined): number =>
    increments
      .filter((i) => i.counter === key && (isMonthlyLimit(key) ? i.period === period : true))
      .reduce((sum, i) => sum + i.delta, 0);
  const after = (key: LimitKey, period: string | undefined): number =>
    Math.max(0, before(key, period) + delta(key, period));
  const values: Partial<Record<HistoryKey, number>> = {};
  const opening: Partial<Record<HistoryKey, number>> = {};
  for (const key of LIMIT_KEYS) {
    const period = isMonthlyLimit(key) ? current : undefined;
    values[key] = after(key, period);
    opening[key] = before(key, period);
  }
  const today = utcDay(now);
  const writes: HistoryWrite[] = [{ month: current, day: today.slice(8, 10), values, opening }];
  const oldest = oldestMonthKept(now);
  const latePeriods = new Set(
    increments.flatMap((i) => (i.period && i.period !== current ? [i.period] : [])),
  );
  for (const period of latePeriods) {
    const days = monthDays(period);
    if (!days || period < oldest || period > current) continue;
    const counters = LIMIT_KEYS.filter((key) => isMonthlyLimit(key));
    const late: Partial<Record<HistoryKey, number>> = {};
    for (const key of counters) late[key] = after(key, period);
    writes.push({ month: period, day: dayOf(days.last).slice(8, 10), values: late, opening: {} });
  }
  return writes;
}
