import type { EventUsageDelta, UsageEvent } from '../domain/index.js';
import type { DistinctMarkers } from './usage-batch-ports.js';

/**
 * Resolves the distinct guards of an event's deltas against the traced-product markers: a
 * delta keeps its ±1 only when this event is the one that adds (or removes) the product;
 * otherwise it becomes 0 (still settling a reservation it names, as the domain asks).
 */
export async function resolveDistinct(
  traced: DistinctMarkers,
  event: UsageEvent,
  deltas: readonly EventUsageDelta[],
  now: Date,
): Promise<EventUsageDelta[]> {
  const resolved: EventUsageDelta[] = [];
  for (const delta of deltas) {
    if (!delta.distinct) {
      resolved.push(delta);
      continue;
    }
    const { member, op } = delta.distinct;
    const counts =
      op === 'ADD'
        ? await traced.claimAdd(event.tenantId, member, event.id, now)
        : await traced.claimRemove(event.tenantId, member, event.id);
    resolved.push(counts ? delta : { ...delta, delta: 0 });
  }
  return resolved;
}

/** After the −1 is applied (or found applied), deletes the markers this event removes. */
export async function finishRemovals(
  traced: DistinctMarkers,
  event: UsageEvent,
  deltas: readonly EventUsageDelta[],
): Promise<void> {
  for (const delta of deltas) {
    if (delta.distinct?.op === 'REMOVE')
      await traced.finishRemove(event.tenantId, delta.distinct.member, event.id);
  }
}
