import { assertValidDate } from '../usage/periods.js';
import { RESERVATION_RETENTION_MS } from './reservation.js';
import type { Reservation } from './reservation.js';
import { planExpiry } from './reservation-transitions.js';
import type { ReservationTransition } from './reservation-transitions.js';

/** What one clean-up pass does to one tenant's reservations. */
export interface CleanupPlan {
  /** HELD reservations past expiry: write each (condition: still HELD) and apply its deltas. */
  readonly expire: readonly ReservationTransition[];
  /** Keys of finished reservations past retention: remove them; a retry after is a new request. */
  readonly remove: readonly string[];
}

/** True when a finished reservation no longer needs keeping for idempotent replay. */
export function isPastRetention(reservation: Reservation, now: Date): boolean {
  if (reservation.state === 'HELD') return false;
  return now.getTime() >= Date.parse(reservation.expiresAt) + RESERVATION_RETENTION_MS;
}

/**
 * The clean-up job's rule. Expiry is checked in code (no TTL indexes on our databases), so
 * an expired hold keeps its units until a pass releases them: run it every minute or so.
 */
export function planCleanup(reservations: readonly Reservation[], now: Date): CleanupPlan {
  assertValidDate(now);
  const expire = reservations
    .map((reservation) => planExpiry(reservation, now))
    .filter((t): t is ReservationTransition => t !== null);
  const remove = reservations.filter((r) => isPastRetention(r, now)).map((r) => r.idempotencyKey);
  return { expire, remove };
}
