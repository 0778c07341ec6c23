import { describe, expect, it } from '@jest/globals';
import { isPastRetention, planCleanup } from './reservation-cleanup.js';
import { RESERVATION_RETENTION_MS } from './reservation.js';
import type { Reservation } from './reservation.js';

const base: Reservation = {
  idempotencyKey: 'k-held',
  action: 'INVITE_USER',
  counter: 'MAX_USERS',
  period: null,
  units: 1,
  consumedUnits: 0,
  state: 'HELD',
  createdAt: '2026-11-10T10:00:00.000Z',
  expiresAt: '2026-11-10T10:15:00.000Z',
  settledAt: null,
};
const expiry = Date.parse(base.expiresAt);

describe('reservation clean-up', () => {
  it('expires held reservations past their expiry and nothing else', () => {
    const live = { ...base, idempotencyKey: 'k-live', expiresAt: '2026-11-10T11:00:00.000Z' };
    const plan = planCleanup([base, live], new Date('2026-11-10T10:20:00.000Z'));
    expect(plan.expire.map((t) => t.reservation.idempotencyKey)).toEqual(['k-held']);
    expect(plan.expire[0]?.deltas).toEqual([{ counter: 'MAX_USERS', delta: -1, heldDelta: -1 }]);
    expect(plan.remove).toEqual([]);
  });

  it('removes finished reservations once the retention after expiry has passed', () => {
    const consumed = { ...base, idempotencyKey: 'k-done', state: 'CONSUMED' as const };
    expect(isPastRetention(consumed, new Date(expiry + RESERVATION_RETENTION_MS - 1))).toBe(false);
    expect(isPastRetention(consumed, new Date(expiry + RESERVATION_RETENTION_MS))).toBe(true);
    expect(planCleanup([consumed], new Date(expiry + RESERVATION_RETENTION_MS)).remove).toEqual(['k-done']);
  });

  it('never removes a reservation that still holds units: it must expire first', () => {
    const much = new Date(expiry + 10 * RESERVATION_RETENTION_MS);
    expect(isPastRetention(base, much)).toBe(false);
    expect(planCleanup([base], much)).toMatchObject({
      remove: [],
      expire: [{ reservation: { state: 'EXPIRED' } }],
    });
  });
});
