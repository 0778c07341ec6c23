import { describe, expect, it } from '@jest/globals';
import { createLocalCounters } from './local-counters.js';
import { resolveRule } from './rules.js';

const minute = resolveRule({
  name: 'per-minute',
  limit: 3,
  windowMs: 60_000,
  subWindows: 6,
  onRedisDown: 'local',
});
const hour = resolveRule({
  name: 'per-hour',
  limit: 4,
  windowMs: 3_600_000,
  subWindows: 6,
  onRedisDown: 'local',
});

describe('in-process fallback counters', () => {
  it('charges every window when all fit, and none when one does not', () => {
    const counters = createLocalCounters();
    const keys = ['a:min', 'a:hour'];
    for (let i = 0; i < 3; i += 1)
      expect(counters.check(keys, [minute, hour], 1_000, 1, true).every((e) => e.fits)).toBe(true);
    const refused = counters.check(keys, [minute, hour], 1_000, 1, true);
    expect(refused.map((e) => e.fits)).toEqual([false, true]);
    expect(refused.map((e) => e.used)).toEqual([3, 3]);
    // An hour-only check sees 3, not 4: the refused check charged the hour window nothing.
    expect(counters.check(['a:hour'], [hour], 1_000, 1, false)[0]?.used).toBe(3);
  });

  it('reports used and resetAt after the charge, like the script', () => {
    const counters = createLocalCounters();
    const [evaluation] = counters.check(['k'], [minute], 25_000, 2, true);
    // Sub-window 2 (20-30 s) leaves the 60 s window, counted in six 10 s sub-windows, at 90 s.
    expect(evaluation).toMatchObject({ used: 2, fits: true, resetAt: 90_000 });
  });

  it('frees units as their sub-window leaves the window', () => {
    const counters = createLocalCounters();
    counters.check(['k'], [minute], 0, 3, true);
    expect(counters.check(['k'], [minute], 69_999, 1, false)[0]?.fits).toBe(false);
    expect(counters.check(['k'], [minute], 70_000, 1, false)[0]?.fits).toBe(true);
  });

  it('keeps at most maxCounters counters, dropping the least recently used', () => {
    const counters = createLocalCounters(2);
    counters.check(['a'], [minute], 0, 3, true);
    counters.check(['b'], [minute], 0, 3, true);
    counters.check(['a'], [minute], 0, 1, false);
    counters.check(['c'], [minute], 0, 3, true);
    expect(counters.size()).toBe(2);
    expect(counters.check(['a'], [minute], 0, 1, false)[0]?.fits).toBe(false);
    expect(counters.check(['b'], [minute], 0, 1, false)[0]?.fits).toBe(true);
  });
});
