import type { ResolvedRule } from './rules.js';
import {
  evaluateWindow,
  isCounted,
  leavesWindowAt,
  subWindowIndex,
  type WindowEvaluation,
} from './sliding-window.js';

/** How many (subject, rule) counters the in-process fallback keeps before dropping the least recent. */
export const DEFAULT_LOCAL_MAX_COUNTERS = 10_000;

/**
 * The in-process fallback for rules whose `onRedisDown` is `local`: the same sliding window as
 * the Redis script, kept in a Map for this process only. It is approximate by construction:
 * with R replicas, up to R x limit units pass while Redis is down, and a counter dropped to
 * stay under `maxCounters` forgets what it counted. It never touches Redis, so it cannot hang.
 */
export interface LocalCounters {
  /**
   * Evaluates every window of one check at `now`, then charges all of them if all fit (and
   * `charge`). Like the script, a charged window reports `used` and `resetAt` after the charge.
   */
  check(
    keys: readonly string[],
    rules: readonly ResolvedRule[],
    now: number,
    cost: number,
    charge: boolean,
  ): WindowEvaluation[];
  /** Gives back `cost` units charged at `at` (see `refund-script.ts`); never below zero. */
  refund(keys: readonly string[], rules: readonly ResolvedRule[], at: number, cost: number): void;
  /** Number of counters held (for tests and metrics). */
  size(): number;
}

export function createLocalCounters(maxCounters = DEFAULT_LOCAL_MAX_COUNTERS): LocalCounters {
  // Map iteration order is insertion order: re-inserting on use makes the first entry the least recent.
  const counters = new Map<string, Map<number, number>>();

  const touch = (key: string, rule: ResolvedRule, now: number): Map<number, number> => {
    const existing = counters.get(key);
    counters.delete(key);
    const buckets = existing ?? new Map<number, number>();
    for (const index of buckets.keys()) if (!isCounted(index, now, rule)) buckets.delete(index);
    counters.set(key, buckets);
    return buckets;
  };

  const evict = (): void => {
    for (const key of counters.keys()) {
      if (counters.size <= maxCounters) return;
      counters.delete(key);
    }
  };

  return {
    check(keys, rules, now, cost, charge) {
      const windows = rules.map((rule, i) => touch(keys[i] ?? '', rule, now));
      const evaluations = rules.map((rule, i) => evaluateWindow(windows[i] ?? new Map(), rule, now, cost));
      evict();
      if (!charge || !evaluations.every((evaluation) => evaluation.fits)) return evaluations;
      return evaluations.map((evaluation, i) => {
        const rule = rules[i];
        const buckets = windows[i];
        if (!rule || !buckets) return evaluation;
        const index = subWindowIndex(now, rule.subWindowMs);
        buckets.set(index, (buckets.get(index) ?? 0) + cost);
        return {
          ...evaluation,
          used: evaluation.used + cost,
          resetAt: Math.max(evaluation.resetAt, leavesWindowAt(index, rule)),
        };
      });
    },
    refund(keys, rules, at, cost) {
      rules.forEach((rule, i) => {
        const buckets = counters.get(keys[i] ?? '');
        const index = subWindowIndex(at, rule.subWindowMs);
        const units = buckets?.get(index) ?? 0;
        if (!buckets || units === 0) return;
        if (units <= cost) buckets.delete(index);
        else buckets.set(index, units - cost);
      });
    },
    size: () => counters.size,
  };
}
