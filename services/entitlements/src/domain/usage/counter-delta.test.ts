import { describe, expect, it } from '@jest/globals';
import { applyCounterDelta, counterDelta, counterPeriod } from './counter-delta.js';

describe('counter deltas', () => {
  it('never takes a counter below zero', () => {
    expect(applyCounterDelta({ used: 0, held: 0 }, { counter: 'MAX_CONNECTIONS', delta: -1 })).toEqual({
      used: 0,
      held: 0,
    });
    expect(
      applyCounterDelta({ used: 5, held: 2 }, { counter: 'MAX_USERS', delta: -1, heldDelta: -3 }),
    ).toEqual({
      used: 4,
      held: 0,
    });
  });

  it('moves used and held together', () => {
    const change = {
      counter: 'BULK_UPLOAD_ROWS_MONTH',
      period: '2026-11',
      delta: 500,
      heldDelta: 500,
    } as const;
    expect(applyCounterDelta({ used: 100, held: 0 }, change)).toEqual({ used: 600, held: 500 });
  });

  it('gives monthly counters a period and gauges none', () => {
    const at = new Date('2026-11-02T00:00:00Z');
    expect(counterPeriod('BULK_UPLOAD_ROWS_MONTH', at)).toBe('2026-11');
    expect(counterPeriod('MAX_USERS', at)).toBeUndefined();
    expect(counterDelta('MAX_USERS', undefined, 1)).toEqual({ counter: 'MAX_USERS', delta: 1 });
    expect(counterDelta('MAX_USERS', undefined, 1)).not.toHaveProperty('period');
  });
});
