import type { LimitKey } from '../catalogue/keys.js';
import { settleEventDelta } from '../reservations/event-settlement.js';
import type { Reservation } from '../reservations/reservation.js';
import { applyCounterDelta, type CounterDelta, type CounterState } from './counter-delta.js';
import type { EventUsageDelta } from './event-counting.js';

/** One event of a tenant's batch, its distinct guards already resolved (a non-counting member: delta 0). */
export interface FoldItem {
  readonly eventId: string;
  readonly deltas: readonly EventUsageDelta[];
}

/** The tenant's state as read before the batch: counters by (counter, period), named reservations. */
export interface FoldStart {
  readonly counter: (counter: LimitKey, period: string | undefined) => CounterState;
  readonly reservations: ReadonlyMap<string, Reservation>;
}

/** What the batch changes: net counter increments and the reservations it settled. */
export interface UsageFold {
  /** Net change per counter over the batch (`delta` of `used`, `heldDelta` of `held`); no zero entries. */
  readonly increments: readonly CounterDelta[];
  /** Reservations the batch settled, in their final state; the write is conditioned on them being HELD. */
  readonly settled: readonly Reservation[];
}

interface Running {
  readonly counter: LimitKey;
  readonly period: string | undefined;
  readonly initial: CounterState;
  current: CounterState;
}

/**
 * Applies a tenant's events in stream order to its counters in memory, exactly as applying them
 * one by one would (each delta clamped at zero as it comes, each event settling the reservation
 * it names against the state the previous events left), and returns the net change for one
 * write. Pure and deterministic: the same start and items always give the same fold, so a
 * writer that lost a conditional write re-reads and folds again.
 */
export function foldUsageBatch(start: FoldStart, items: readonly FoldItem[], now: Date): UsageFold {
  const counters = new Map<string, Running>();
  const reservations = new Map(start.reservations);
  const settled = new Map<string, Reservation>();
  const running = (counter: LimitKey, period: string | undefined): Running => {
    const key = `${counter}|${period ?? ''}`;
    let entry = counters.get(key);
    if (!entry) {
      const initial = start.counter(counter, period);
      entry = { counter, period, initial, current: initial };
      counters.set(key, entry);
    }
    return entry;
  };
  for (const item of items) {
    for (const delta of item.deltas) {
      const key = delta.reservationKey;
      const settlement = settleEventDelta(delta, key ? reservations.get(key) : undefined, now);
      for (const change of settlement.deltas) {
        const entry = running(change.counter, change.period);
        entry.current = applyCounterDelta(entry.current, change);
      }
      if (settlement.reservation) {
        reservations.set(settlement.reservation.idempotencyKey, settlement.reservation);
        settled.set(settlement.reservation.idempotencyKey, settlement.reservation);
      }
    }
  }
  const increments: CounterDelta[] = [];
  for (const entry of counters.values()) {
    const used = entry.current.used - entry.initial.used;
    const held = entry.current.held - entry.initial.held;
    if (used === 0 && held === 0) continue;
    increments.push({
      counter: entry.counter,
      ...(entry.period === undefined ? {} : { period: entry.period }),
      delta: used,
      ...(held === 0 ? {} : { heldDelta: held }),
    });
  }
  return { increments, settled: [...settled.values()] };
}

/**
 * Where a batch must be cut so that each part is one write: before an event that adds a
 * distinct member (a traced product) an earlier event of the same part removes. The removal's
 * marker is deleted only after its write, so the re-add must see that write first.
 */
export function writeParts<T extends { readonly deltas: readonly EventUsageDelta[] }>(
  items: readonly T[],
): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let removed = new Set<string>();
  for (const item of items) {
    const readds = item.deltas.some((d) => d.distinct?.op === 'ADD' && removed.has(d.distinct.member));
    if (readds && part.length > 0) {
      parts.push(part);
      part = [];
      removed = new Set();
    }
    part.push(item);
    for (const d of item.deltas) if (d.distinct?.op === 'REMOVE') removed.add(d.distinct.member);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
