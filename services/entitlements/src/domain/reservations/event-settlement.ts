import type { CounterDelta } from '../usage/counter-delta.js';
import type { EventUsageDelta } from '../usage/event-counting.js';
import type { Reservation } from './reservation.js';
import { settle } from './reservation-transitions.js';

/** What to apply for one event delta, and the reservation it settled, if it settled one. */
export interface EventSettlement {
  readonly deltas: readonly CounterDelta[];
  /** The reservation after settlement; write it (condition: still HELD) with the deltas. */
  readonly reservation?: Reservation;
}

/**
 * An event and a consume call are two reports of one fact, so whichever arrives first counts
 * and the other changes nothing. An event naming a HELD reservation consumes it with the
 * event's own count (the truth, even above the hold, even past expiry since the work was
 * done); one naming a CONSUMED reservation counts nothing; otherwise the event counts as usual.
 * Resolve `distinct` first: when the member is not new, pass the delta with `delta: 0`.
 */
export function settleEventDelta(
  delta: EventUsageDelta,
  reservation: Reservation | undefined,
  now: Date,
): EventSettlement {
  const { reservationKey: _key, distinct: _distinct, ...plain } = delta;
  const names = reservation !== undefined && reservation.idempotencyKey === delta.reservationKey;
  if (!names || reservation.counter !== delta.counter || delta.delta < 0) return { deltas: [plain] };
  if (reservation.state === 'CONSUMED') return { deltas: [] };
  if (reservation.state !== 'HELD') return { deltas: [plain] };
  const transition = settle(reservation, 'CONSUMED', delta.delta, now);
  return { deltas: transition.deltas, reservation: transition.reservation };
}
