import { describe, expect, it } from '@jest/globals';
import { planIncrements } from './counter-increments.js';
import type { UsageDocument } from './usage-document.js';

const doc: UsageDocument = {
  _id: 't',
  counters: { MAX_ACTIVE_PRODUCTS: { used: 2, held: 0 }, MAX_CONNECTIONS: { used: 0 } },
  months: { '2026-11': { BULK_UPLOAD_ROWS_MONTH: { used: 500, held: 500 } } },
};

describe('planIncrements', () => {
  it('puts gauges under counters and monthly counters under their month', () => {
    const { inc } = planIncrements(doc, [
      { counter: 'MAX_USERS', delta: 1 },
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 20 },
    ]);
    expect(inc).toEqual({ 'counters.MAX_USERS.used': 1, 'months.2026-11.BULK_UPLOAD_ROWS_MONTH.used': 20 });
  });

  it('guards every decrement with $gte its size, so a moved counter makes the update miss', () => {
    const plan = planIncrements(doc, [
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: -180, heldDelta: -500 },
    ]);
    expect(plan.inc).toEqual({
      'months.2026-11.BULK_UPLOAD_ROWS_MONTH.used': -180,
      'months.2026-11.BULK_UPLOAD_ROWS_MONTH.held': -500,
    });
    expect(plan.guards).toEqual({
      'months.2026-11.BULK_UPLOAD_ROWS_MONTH.used': { $gte: 180 },
      'months.2026-11.BULK_UPLOAD_ROWS_MONTH.held': { $gte: 500 },
    });
  });

  it('clamps a decrement at zero and leaves a zero change out', () => {
    const plan = planIncrements(doc, [
      { counter: 'MAX_CONNECTIONS', delta: -1 },
      { counter: 'MAX_ACTIVE_PRODUCTS', delta: -3 },
    ]);
    expect(plan.inc).toEqual({ 'counters.MAX_ACTIVE_PRODUCTS.used': -2 });
    expect(plan.guards).toEqual({ 'counters.MAX_ACTIVE_PRODUCTS.used': { $gte: 2 } });
  });

  it('sums deltas on the same counter before clamping', () => {
    const plan = planIncrements(null, [
      { counter: 'MAX_USERS', delta: 2 },
      { counter: 'MAX_USERS', delta: -1 },
    ]);
    expect(plan.inc).toEqual({ 'counters.MAX_USERS.used': 1 });
    expect(plan.guards).toEqual({});
  });
});
