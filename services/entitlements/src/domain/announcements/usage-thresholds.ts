/**
 * The thresholds of `usage.threshold_reached` / `usage.threshold_cleared` (issue 24): 80% of a
 * limit (the usage report's APPROACHING) and 100% (REACHED).
 */
export const USAGE_THRESHOLDS = [80, 100] as const;

export type ThresholdPercent = (typeof USAGE_THRESHOLDS)[number];
/** The highest threshold a count is at or past; 0 below the first. */
export type ThresholdLevel = 0 | ThresholdPercent;

/** One limit as it stands: `periodStart` names the period its thresholds are counted in. */
export interface LimitReading {
  readonly limitKey: string;
  readonly current: number;
  /** null: unlimited; 0: not in this tier. Neither has thresholds. */
  readonly limit: number | null;
  readonly periodStart: string;
}

/** What the bus was told of one limit: the level, and how many crossings of the period so far. */
export interface AnnouncedLevel {
  readonly periodStart: string;
  readonly level: ThresholdLevel;
  readonly crossings: number;
}

export interface ThresholdCrossing {
  readonly type: 'usage.threshold_reached' | 'usage.threshold_cleared';
  readonly limitKey: string;
  readonly thresholdPercent: ThresholdPercent;
  readonly current: number;
  readonly limit: number;
  readonly periodStart: string;
  /** 1 for the first crossing of this limit in this period: part of the event's id. */
  readonly crossing: number;
}

export function thresholdLevel(current: number, limit: number | null): ThresholdLevel {
  if (limit === null || limit <= 0) return 0;
  if (current >= limit) return 100;
  return current * 100 >= 80 * limit ? 80 : 0;
}

/**
 * The crossings that take consumers from `announced` to `readings`, and what is announced
 * after them. Pure: a limit is announced once per crossing per period (a new period, a new
 * month or a new tier, starts again from level 0 without a `cleared`), a rise past both
 * thresholds announces both in order, a drop announces each threshold left. A count that
 * crossed and came back between two looks announces nothing.
 */
export function thresholdCrossings(
  announced: Readonly<Record<string, AnnouncedLevel>>,
  readings: readonly LimitReading[],
): { crossings: ThresholdCrossing[]; next: Record<string, AnnouncedLevel> } {
  const crossings: ThresholdCrossing[] = [];
  const next: Record<string, AnnouncedLevel> = {};
  for (const reading of readings) {
    const before = announced[reading.limitKey];
    const samePeriod = before?.periodStart === reading.periodStart;
    const from: ThresholdLevel = samePeriod ? before.level : 0;
    let count = samePeriod ? before.crossings : 0;
    const to = thresholdLevel(reading.current, reading.limit);
    const limit = reading.limit ?? 0;
    if (limit > 0) {
      const passed =
        to > from
          ? USAGE_THRESHOLDS.filter((t) => t > from && t <= to).map(
              (t) => ['usage.threshold_reached', t] as const,
            )
          : [...USAGE_THRESHOLDS]
              .reverse()
              .filter((t) => t <= from && t > to)
              .map((t) => ['usage.threshold_cleared', t] as const);
      for (const [type, thresholdPercent] of passed) {
        count += 1;
        crossings.push({
          type,
          limitKey: reading.limitKey,
          thresholdPercent,
          current: reading.current,
          limit,
          periodStart: reading.periodStart,
          crossing: count,
        });
      }
    }
    next[reading.limitKey] = {
      periodStart: reading.periodStart,
      level: limit > 0 ? to : 0,
      crossings: count,
    };
  }
  return { crossings, next };
}
