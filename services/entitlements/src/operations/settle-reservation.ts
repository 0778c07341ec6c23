import {
  assertIdempotencyKey,
  entitlementErrors,
  planConsume,
  planRelease,
  type Reservation,
  type ReservationTransition,
} from '../domain/index.js';
import { MAX_WRITE_ATTEMPTS, type UsageOperationsDeps } from './deps.js';

type Planner = (reservation: Reservation | undefined, now: Date) => ReservationTransition;

/** Consume: count `units` of the hold (all of it by default) and give the rest back. */
export function consumeReservation(
  deps: UsageOperationsDeps,
  tenantId: string,
  idempotencyKey: string,
  units?: number,
): Promise<ReservationTransition> {
  return settle(deps, tenantId, idempotencyKey, (reservation, now) => planConsume(reservation, now, units));
}

/** Release: the operation did not happen; give the held units back. */
export function releaseReservation(
  deps: UsageOperationsDeps,
  tenantId: string,
  idempotencyKey: string,
): Promise<ReservationTransition> {
  return settle(deps, tenantId, idempotencyKey, planRelease);
}

/**
 * Reads the reservation, lets the domain plan the transition (or answer a repeat), and writes
 * it conditioned on the reservation still being HELD; re-plans if that lost to a concurrent
 * change (an event settling it, the clean-up job expiring it).
 */
async function settle(
  deps: UsageOperationsDeps,
  tenantId: string,
  idempotencyKey: string,
  plan: Planner,
): Promise<ReservationTransition> {
  // The key becomes a field name: validate it before it reaches the store.
  assertIdempotencyKey(idempotencyKey);
  return deps.lock.run(tenantId, async () => {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      const now = deps.now();
      const view = await deps.usage.read(tenantId, { reservationKey: idempotencyKey });
      const transition = plan(view.reservation, now);
      if (!transition.changed) return transition;
      if (await deps.usage.settleReservation(tenantId, view, transition, now)) return transition;
    }
    throw entitlementErrors.create('RESERVATION_CONTENDED');
  });
}
