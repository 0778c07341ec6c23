import {
  entitlementErrors,
  settleEventDelta,
  usageDeltasFor,
  type CounterDelta,
  type EventUsageDelta,
  type Reservation,
  type UsageEvent,
} from '../domain/index.js';
import type { EventWrite } from '../store/usage-repository.js';
import { MAX_WRITE_ATTEMPTS, type UsageOperationsDeps } from './deps.js';
import { finishRemovals, resolveDistinct } from './traced-deltas.js';

/** How one product event ended: counted now, counted before (a redelivery), or nothing to count. */
export type CountOutcome = 'COUNTED' | 'DUPLICATE' | 'NOTHING_TO_COUNT';

/**
 * Applies a product event to its tenant's usage counters at most once: the event id is marked
 * applied in the same single-document update as the counter changes. Throws INVALID_EVENT
 * (permanent: park it) when a counted kind lacks what its rule reads, RESERVATION_CONTENDED
 * (retry later) when the counters kept moving.
 */
export async function countEvent(deps: UsageOperationsDeps, event: UsageEvent): Promise<CountOutcome> {
  const deltas = usageDeltasFor(event);
  if (deltas.length === 0) return 'NOTHING_TO_COUNT';
  const reservationKey = deltas.find((d) => d.reservationKey !== undefined)?.reservationKey;
  const focus = { eventId: event.id, ...(reservationKey ? { reservationKey } : {}) };
  return deps.lock.run(event.tenantId, async () => {
    const now = deps.now();
    let view = await deps.usage.read(event.tenantId, focus);
    // Checked before the markers are touched, so a redelivery cannot re-mark a product as traced.
    if (view.eventApplied) return finish(deps, event, deltas, 'DUPLICATE');
    const resolved = await resolveDistinct(deps.traced, event, deltas, now);
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      const write = settleAll(event.id, resolved, view.reservation, now);
      if (write.reservation === undefined && write.deltas.every(isZero)) {
        return finish(deps, event, deltas, 'NOTHING_TO_COUNT');
      }
      if (await deps.usage.applyEvent(event.tenantId, view, write, now))
        return finish(deps, event, deltas, 'COUNTED');
      view = await deps.usage.read(event.tenantId, focus);
      if (view.eventApplied) return finish(deps, event, deltas, 'DUPLICATE');
    }
    throw entitlementErrors.create('RESERVATION_CONTENDED');
  });
}

function settleAll(
  eventId: string,
  deltas: readonly EventUsageDelta[],
  reservation: Reservation | undefined,
  now: Date,
): EventWrite {
  const plain: CounterDelta[] = [];
  let settled: Reservation | undefined;
  for (const delta of deltas) {
    const settlement = settleEventDelta(delta, delta.reservationKey ? reservation : undefined, now);
    plain.push(...settlement.deltas);
    settled ??= settlement.reservation;
  }
  return { eventId, deltas: plain, ...(settled ? { reservation: settled } : {}) };
}

function isZero(delta: CounterDelta): boolean {
  return delta.delta === 0 && (delta.heldDelta ?? 0) === 0;
}

async function finish(
  deps: UsageOperationsDeps,
  event: UsageEvent,
  deltas: readonly EventUsageDelta[],
  outcome: CountOutcome,
): Promise<CountOutcome> {
  await finishRemovals(deps.traced, event, deltas);
  return outcome;
}
