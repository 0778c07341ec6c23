import { describe, expect, it } from '@jest/globals';
import { planConsume, planExpiry, planRelease } from './reservation-transitions.js';
import type { Reservation } from './reservation.js';
import { heldReservation } from '../testing/reservations.js';

const created = new Date('2026-11-10T10:00:00.000Z');
const before = new Date('2026-11-10T10:10:00.000Z');
const after = new Date('2026-11-10T10:15:00.000Z');
const withCode = (code: string) => expect.objectContaining({ code });

const held = heldReservation({ createdAt: created.toISOString() });
const inState = (state: Reservation['state']): Reservation => ({
  ...held,
  state,
  settledAt: before.toISOString(),
});

describe('consuming a reservation', () => {
  it('turns the hold into usage: used stays, held drops', () => {
    expect(planConsume(held, before)).toEqual({
      changed: true,
      reservation: { ...held, state: 'CONSUMED', consumedUnits: 500, settledAt: before.toISOString() },
      deltas: [{ counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 0, heldDelta: -500 }],
    });
  });

  it('returns the unused part of the hold when fewer units were used', () => {
    expect(planConsume(held, before, 420).deltas).toEqual([
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: -80, heldDelta: -500 },
    ]);
  });

  it('answers a repeated consume as the first, changing nothing', () => {
    const consumed = { ...inState('CONSUMED'), consumedUnits: 500 };
    expect(planConsume(consumed, after)).toEqual({ changed: false, reservation: consumed, deltas: [] });
  });

  it('refuses to consume once expired, released, or beyond the hold', () => {
    expect(() => planConsume(held, after)).toThrow(withCode('RESERVATION_EXPIRED'));
    expect(() => planConsume(inState('EXPIRED'), before)).toThrow(withCode('RESERVATION_EXPIRED'));
    expect(() => planConsume(inState('RELEASED'), before)).toThrow(withCode('RESERVATION_RELEASED'));
    expect(() => planConsume(held, before, 501)).toThrow(withCode('CONSUME_EXCEEDS_RESERVATION'));
  });

  it('rejects a bad unit count and an unknown reservation', () => {
    expect(() => planConsume(held, before, -1)).toThrow(withCode('INVALID_RESOURCE_COUNT'));
    expect(() => planConsume(held, before, 0.5)).toThrow(withCode('INVALID_RESOURCE_COUNT'));
    expect(() => planConsume(undefined, before)).toThrow(withCode('RESERVATION_NOT_FOUND'));
  });
});

describe('releasing a reservation', () => {
  it('gives every held unit back', () => {
    expect(planRelease(held, before)).toEqual({
      changed: true,
      reservation: { ...held, state: 'RELEASED', settledAt: before.toISOString() },
      deltas: [{ counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: -500, heldDelta: -500 }],
    });
  });

  it('still releases a hold past expiry that the clean-up job has not reached yet', () => {
    expect(planRelease(held, after).reservation.state).toBe('RELEASED');
  });

  it('changes nothing when released again or already expired', () => {
    expect(planRelease(inState('RELEASED'), after).changed).toBe(false);
    expect(planRelease(inState('EXPIRED'), after).changed).toBe(false);
  });

  it('refuses to release what was consumed, and what does not exist', () => {
    expect(() => planRelease(inState('CONSUMED'), before)).toThrow(withCode('RESERVATION_CONSUMED'));
    expect(() => planRelease(undefined, before)).toThrow(withCode('RESERVATION_NOT_FOUND'));
  });

  it('gives a gauge back without a period', () => {
    const user: Reservation = {
      ...held,
      action: 'INVITE_USER',
      counter: 'MAX_USERS',
      period: null,
      units: 1,
    };
    expect(planRelease(user, before).deltas).toEqual([{ counter: 'MAX_USERS', delta: -1, heldDelta: -1 }]);
  });
});

describe('expiring a reservation', () => {
  it('expires a hold at its expiry instant, giving its units back', () => {
    const at = new Date(held.expiresAt);
    expect(planExpiry(held, at)).toMatchObject({
      changed: true,
      reservation: { state: 'EXPIRED' },
      deltas: [{ delta: -500, heldDelta: -500 }],
    });
  });

  it('leaves live holds and finished reservations alone', () => {
    expect(planExpiry(held, before)).toBeNull();
    expect(planExpiry(inState('CONSUMED'), after)).toBeNull();
  });

  it('rejects an invalid clock', () => {
    expect(() => planExpiry(held, new Date(Number.NaN))).toThrow(withCode('INVALID_TIMESTAMP'));
  });
});
