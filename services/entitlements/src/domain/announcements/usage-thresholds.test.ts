import { describe, expect, it } from '@jest/globals';
import { thresholdCrossings, thresholdLevel, type AnnouncedLevel } from './usage-thresholds.js';

const period = '2026-11-01T00:00:00.000Z';
const reading = (current: number, limit: number | null = 10, periodStart = period) => ({
  limitKey: 'MAX_CONNECTIONS',
  current,
  limit,
  periodStart,
});
const at = (
  level: 0 | 80 | 100,
  crossings: number,
  periodStart = period,
): Record<string, AnnouncedLevel> => ({
  MAX_CONNECTIONS: { periodStart, level, crossings },
});

describe('usage thresholds, announced once per crossing per period', () => {
  it('places a count at 0, 80 or 100; unlimited and absent limits have no thresholds', () => {
    expect([7, 8, 9, 10, 12].map((n) => thresholdLevel(n, 10))).toEqual([0, 80, 80, 100, 100]);
    expect(thresholdLevel(5, null)).toBe(0);
    expect(thresholdLevel(5, 0)).toBe(0);
  });

  it('announces 80% once, nothing while it stays there, then 100%', () => {
    const first = thresholdCrossings({}, [reading(8)]);
    expect(first.crossings).toEqual([
      expect.objectContaining({
        type: 'usage.threshold_reached',
        thresholdPercent: 80,
        current: 8,
        limit: 10,
        crossing: 1,
      }),
    ]);
    expect(thresholdCrossings(first.next, [reading(9)]).crossings).toEqual([]);
    expect(thresholdCrossings(first.next, [reading(10)]).crossings).toEqual([
      expect.objectContaining({ type: 'usage.threshold_reached', thresholdPercent: 100, crossing: 2 }),
    ]);
  });

  it('announces both thresholds of a jump in order, and each one left on the way down', () => {
    expect(thresholdCrossings({}, [reading(11)]).crossings.map((c) => c.thresholdPercent)).toEqual([80, 100]);
    const down = thresholdCrossings(at(100, 2), [reading(3)]).crossings;
    expect(down.map((c) => [c.type, c.thresholdPercent, c.crossing])).toEqual([
      ['usage.threshold_cleared', 100, 3],
      ['usage.threshold_cleared', 80, 4],
    ]);
  });

  it('starts a new period at level 0 without a cleared, and never announces an unlimited limit', () => {
    const next = thresholdCrossings(at(100, 2), [reading(2, 10, '2026-12-01T00:00:00.000Z')]);
    expect(next.crossings).toEqual([]);
    expect(next.next['MAX_CONNECTIONS']).toEqual({
      periodStart: '2026-12-01T00:00:00.000Z',
      level: 0,
      crossings: 0,
    });
    expect(thresholdCrossings({}, [reading(1_000, null)]).crossings).toEqual([]);
  });
});
