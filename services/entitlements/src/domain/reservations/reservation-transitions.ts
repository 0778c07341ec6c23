import { entitlementErrors } from '../errors.js';
import type { CounterDelta } from '../usage/counter-delta.js';
import { assertValidDate } from '../usage/periods.js';
import { describeValue, isNonNegativeSafeInteger } from '../usage/usage-snapshot.js';
import type { Reservation } from './reservation.js';

/**
 * The result of consume, release or expiry. When `changed`, the store writes `reservation`
 * and applies `deltas` in one update conditioned on the stored state still being HELD (the
 * only state that moves); if that condition fails, it re-reads and plans again. When not
 * `changed`, the call was a repeat: answer with `reservation` and write nothing.
 */
export interface ReservationTransition {
  readonly changed: boolean;
  readonly reservation: Reservation;
  readonly deltas: readonly CounterDelta[];
}

/** True once a reservation's hold has run out (at `expiresAt` exactly, it has). */
export function isReservationExpired(reservation: Reservation, now: Date): boolean {
  return now.getTime() >= Date.parse(reservation.expiresAt);
}

/**
 * Consume: the operation happened, count `units` (default: all held; fewer returns the rest).
 * Repeating a consume answers the first one. Throws RESERVATION_NOT_FOUND, RESERVATION_EXPIRED,
 * RESERVATION_RELEASED, INVALID_RESOURCE_COUNT or CONSUME_EXCEEDS_RESERVATION.
 */
export function planConsume(
  reservation: Reservation | undefined,
  now: Date,
  units?: number,
): ReservationTransition {
  const held = requireReservation(reservation, now);
  const consumed = units ?? held.units;
  if (!isNonNegativeSafeInteger(consumed)) {
    throw entitlementErrors.create('INVALID_RESOURCE_COUNT', { details: { units: describeValue(consumed) } });
  }
  if (held.state === 'CONSUMED') return unchanged(held);
  if (held.state === 'RELEASED') throw stateError('RESERVATION_RELEASED', held);
  if (held.state === 'EXPIRED' || isReservationExpired(held, now))
    throw stateError('RESERVATION_EXPIRED', held);
  if (consumed > held.units) throw stateError('CONSUME_EXCEEDS_RESERVATION', held);
  return settle(held, 'CONSUMED', consumed, now);
}

/**
 * Release: the operation did not happen, give the units back. Releasing twice, or after
 * expiry, changes nothing. Throws RESERVATION_NOT_FOUND or RESERVATION_CONSUMED.
 */
export function planRelease(reservation: Reservation | undefined, now: Date): ReservationTransition {
  const held = requireReservation(reservation, now);
  if (held.state === 'RELEASED' || held.state === 'EXPIRED') return unchanged(held);
  if (held.state === 'CONSUMED') throw stateError('RESERVATION_CONSUMED', held);
  return settle(held, 'RELEASED', 0, now);
}

/** Expiry, for the clean-up job: a HELD reservation past `expiresAt` gives its units back. */
export function planExpiry(reservation: Reservation, now: Date): ReservationTransition | null {
  assertValidDate(now);
  if (reservation.state !== 'HELD' || !isReservationExpired(reservation, now)) return null;
  return settle(reservation, 'EXPIRED', 0, now);
}

/**
 * Leaves HELD, counting `counted` units: `used` changes by counted − units (the hold already
 * sits in `used`), `held` drops by the hold. `counted` may exceed the hold only when an event
 * reports what actually happened (see settleEventDelta).
 */
export function settle(
  held: Reservation,
  state: 'CONSUMED' | 'RELEASED' | 'EXPIRED',
  counted: number,
  now: Date,
): ReservationTransition {
  const reservation: Reservation = { ...held, state, consumedUnits: counted, settledAt: now.toISOString() };
  const delta: CounterDelta = {
    counter: held.counter,
    ...(held.period === null ? {} : { period: held.period }),
    delta: counted - held.units,
    heldDelta: -held.units,
  };
  return { changed: true, reservation, deltas: [delta] };
}

function requireReservation(reservation: Reservation | undefined, now: Date): Reservation {
  assertValidDate(now);
  if (reservation === undefined) throw entitlementErrors.create('RESERVATION_NOT_FOUND');
  return reservation;
}

function unchanged(reservation: Reservation): ReservationTransition {
  return { changed: false, reservation, deltas: [] };
}

function stateError(
  code:
    'RESERVATION_RELEASED' | 'RESERVATION_EXPIRED' | 'RESERVATION_CONSUMED' | 'CONSUME_EXCEEDS_RESERVATION',
  reservation: Reservation,
) {
  return entitlementErrors.create(code, {
    details: { idempotencyKey: reservation.idempotencyKey, state: reservation.state },
  });
}
