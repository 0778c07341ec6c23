import { describe, expect, it } from '@jest/globals';
import type { Reservation } from '../reservations/reservation.js';
import { applyCounterDelta, type CounterState } from './counter-delta.js';
import type { EventUsageDelta } from './event-counting.js';
import { foldUsageBatch, writeParts, type FoldStart } from './fold-usage-batch.js';

const now = new Date('2026-11-23T10:00:00.000Z');
const zero = (): CounterState => ({ used: 0, held: 0 });
const start = (counts: Record<string, CounterState> = {}, reservations: Reservation[] = []): FoldStart => ({
  counter: (counter, period) => counts[`${counter}|${period ?? ''}`] ?? zero(),
  reservations: new Map(reservations.map((r) => [r.idempotencyKey, r])),
});
const item = (eventId: string, ...deltas: EventUsageDelta[]) => ({ eventId, deltas });
const products = (delta: 1 | -1): EventUsageDelta => ({ counter: 'MAX_ACTIVE_PRODUCTS', delta });

describe('foldUsageBatch', () => {
  it('sums a batch into one net increment per counter', () => {
    const fold = foldUsageBatch(
      start(),
      [item('a', products(1)), item('b', products(1)), item('c', { counter: 'MAX_USERS', delta: 1 })],
      now,
    );
    expect(fold.increments).toEqual([
      { counter: 'MAX_ACTIVE_PRODUCTS', delta: 2 },
      { counter: 'MAX_USERS', delta: 1 },
    ]);
    expect(fold.settled).toEqual([]);
  });

  it('clamps each delta at zero in order, as applying the events one by one would', () => {
    // 0 → (−1 clamped) 0 → 1: one by one gives +1, while a plain sum would give 0.
    const items = [item('a', products(-1)), item('b', products(1))];
    const oneByOne = items
      .flatMap((i) => i.deltas)
      .reduce((state, delta) => applyCounterDelta(state, delta), zero());
    const fold = foldUsageBatch(start(), items, now);
    expect(fold.increments).toEqual([{ counter: 'MAX_ACTIVE_PRODUCTS', delta: oneByOne.used }]);
    expect(oneByOne.used).toBe(1);
  });

  it('leaves out counters the batch moved back to where they were', () => {
    const fold = foldUsageBatch(
      start({ 'MAX_ACTIVE_PRODUCTS|': { used: 3, held: 0 } }),
      [item('a', products(1)), item('b', products(-1))],
      now,
    );
    expect(fold.increments).toEqual([]);
  });

  it('settles a HELD reservation once, and a second event naming it counts nothing', () => {
    const held: Reservation = {
      idempotencyKey: 'import-1',
      action: 'BULK_UPLOAD',
      counter: 'BULK_UPLOAD_ROWS_MONTH',
      period: '2026-11',
      units: 100,
      consumedUnits: 0,
      state: 'HELD',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
      settledAt: null,
    };
    const rows = (n: number): EventUsageDelta => ({
      counter: 'BULK_UPLOAD_ROWS_MONTH',
      period: '2026-11',
      delta: n,
      reservationKey: 'import-1',
    });
    const fold = foldUsageBatch(
      start({ 'BULK_UPLOAD_ROWS_MONTH|2026-11': { used: 100, held: 100 } }, [held]),
      [item('a', rows(80)), item('b', rows(80))],
      now,
    );
    expect(fold.settled).toHaveLength(1);
    expect(fold.settled[0]).toMatchObject({ state: 'CONSUMED', consumedUnits: 80 });
    expect(fold.increments).toEqual([
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: -20, heldDelta: -100 },
    ]);
  });
});

describe('writeParts', () => {
  const traced = (member: string, op: 'ADD' | 'REMOVE'): EventUsageDelta => ({
    counter: 'MAX_TRACED_PRODUCTS',
    delta: op === 'ADD' ? 1 : -1,
    distinct: { set: 'TRACED_PRODUCTS', member, op },
  });

  it('keeps a batch whole when no member is removed and added again', () => {
    const items = [item('a', traced('p1', 'ADD')), item('b', traced('p2', 'REMOVE')), item('c', products(1))];
    expect(writeParts(items)).toEqual([items]);
  });

  it('cuts before an event that adds back a member an earlier one removed', () => {
    const items = [item('a', traced('p1', 'REMOVE')), item('b', products(1)), item('c', traced('p1', 'ADD'))];
    expect(writeParts(items)).toEqual([items.slice(0, 2), items.slice(2)]);
  });
});
