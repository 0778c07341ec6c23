import { describe, expect, it } from '@jest/globals';
import type { EventUsageDelta } from '../usage/event-counting.js';
import { settleEventDelta } from './event-settlement.js';
import { heldReservation } from '../testing/reservations.js';

const now = new Date('2026-11-10T10:05:00.000Z');
const held = heldReservation({ idempotencyKey: 'imp-1' });
const imported = (rows: number): EventUsageDelta => ({
  counter: 'BULK_UPLOAD_ROWS_MONTH',
  period: '2026-11',
  delta: rows,
  reservationKey: 'imp-1',
});

describe('settling an event against a reservation', () => {
  it('consumes a held reservation with the count the event reports', () => {
    const settlement = settleEventDelta(imported(480), held, now);
    expect(settlement.deltas).toEqual([
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: -20, heldDelta: -500 },
    ]);
    expect(settlement.reservation).toMatchObject({ state: 'CONSUMED', consumedUnits: 480 });
  });

  it('counts the truth even above the hold: the rows were imported', () => {
    expect(settleEventDelta(imported(530), held, now).deltas).toEqual([
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 30, heldDelta: -500 },
    ]);
  });

  it('counts nothing when a consume call already counted it', () => {
    const consumed = { ...held, state: 'CONSUMED' as const, consumedUnits: 500 };
    expect(settleEventDelta(imported(500), consumed, now)).toEqual({ deltas: [] });
  });

  it('counts as usual when the reservation was released, expired, or is unknown', () => {
    const plain = { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 500 };
    expect(settleEventDelta(imported(500), { ...held, state: 'RELEASED' }, now)).toEqual({ deltas: [plain] });
    expect(settleEventDelta(imported(500), { ...held, state: 'EXPIRED' }, now)).toEqual({ deltas: [plain] });
    expect(settleEventDelta(imported(500), undefined, now)).toEqual({ deltas: [plain] });
  });

  it('ignores a reservation of another counter or another key', () => {
    const user = { ...held, counter: 'MAX_USERS' as const, period: null };
    expect(settleEventDelta(imported(5), user, now).reservation).toBeUndefined();
    expect(
      settleEventDelta(imported(5), { ...held, idempotencyKey: 'other' }, now).reservation,
    ).toBeUndefined();
  });

  it('passes an event without a reservation key through as a plain counter delta', () => {
    const traced: EventUsageDelta = {
      counter: 'MAX_TRACED_PRODUCTS',
      delta: 1,
      distinct: { set: 'TRACED_PRODUCTS', member: 'p-1', op: 'ADD' },
    };
    expect(settleEventDelta(traced, undefined, now)).toEqual({
      deltas: [{ counter: 'MAX_TRACED_PRODUCTS', delta: 1 }],
    });
  });
});
