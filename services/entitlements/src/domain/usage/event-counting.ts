import type { ProductEventEnvelope } from '@tap/contracts';
import { entitlementErrors } from '../errors.js';
import type { LimitKey } from '../catalogue/keys.js';
import { isIdempotencyKey } from '../reservations/idempotency-key.js';
import type { CounterDelta } from './counter-delta.js';
import { monthlyPeriod } from './periods.js';
import { isNonNegativeSafeInteger } from './usage-snapshot.js';

/** The product-event envelope counting reads (the contract's, its kind not yet checked). */
export type UsageEvent = ProductEventEnvelope;

/**
 * Count a unit only if `member` is new to (ADD) or was in (REMOVE) the tenant's `set`.
 * The store keeps one marker per member recording the event id that added it; it applies the
 * delta when the marker's event id is this event's (so a redelivery still counts once).
 */
export interface DistinctGuard {
  readonly set: 'TRACED_PRODUCTS';
  readonly member: string;
  readonly op: 'ADD' | 'REMOVE';
}

/** A counter change caused by a product event. */
export interface EventUsageDelta extends CounterDelta {
  readonly distinct?: DistinctGuard;
  /** `data.reservationKey` of the event: the reservation this event settles, if any. */
  readonly reservationKey?: string;
}

type Rule = (event: UsageEvent) => EventUsageDelta[];

const gauge =
  (counter: LimitKey, delta: 1 | -1): Rule =>
  (event) => [withReservation(event, { counter, delta })];

/** Which event kinds move which counters. Every other kind moves none. */
const COUNTING_RULES: Readonly<Record<string, Rule>> = Object.freeze({
  'product.created': gauge('MAX_ACTIVE_PRODUCTS', 1),
  'product.archived': (event) => [
    { counter: 'MAX_ACTIVE_PRODUCTS', delta: -1 },
    // Archiving frees the product's traceability slot, if it had one.
    tracedDelta(event, 'REMOVE'),
  ],
  'connection.accepted': gauge('MAX_CONNECTIONS', 1),
  'connection.removed': gauge('MAX_CONNECTIONS', -1),
  // MAX_USERS is not counted from events: the seat ledger (TakeSeat/ReleaseSeat, called by
  // identity) is its one source of truth, so a `user.joined` event moves no counter.
  'trace.recorded': (event) => [withReservation(event, tracedDelta(event, 'ADD'))],
  'import.completed': importedRows,
});

/** The event kinds that move a counter. */
export const COUNTED_EVENT_TYPES: readonly string[] = Object.freeze(Object.keys(COUNTING_RULES));

/**
 * The counter changes one product event causes; [] for kinds that count nothing. Throws
 * INVALID_EVENT when a counted kind lacks what its rule reads (the consumer should park it).
 */
export function usageDeltasFor(event: UsageEvent): EventUsageDelta[] {
  const rule = COUNTING_RULES[event.type];
  if (rule === undefined) return [];
  if (Number.isNaN(new Date(event.occurredAt).getTime())) throw invalidEvent(event, 'occurredAt');
  return rule(event);
}

function importedRows(event: UsageEvent): EventUsageDelta[] {
  const rows = event.data['rows'];
  if (!isNonNegativeSafeInteger(rows)) throw invalidEvent(event, 'data.rows');
  // The month the import happened in, not the month we processed it: replays agree.
  const period = monthlyPeriod(new Date(event.occurredAt));
  const delta = withReservation(event, { counter: 'BULK_UPLOAD_ROWS_MONTH', period, delta: rows });
  return rows === 0 && delta.reservationKey === undefined ? [] : [delta];
}

function tracedDelta(event: UsageEvent, op: DistinctGuard['op']): EventUsageDelta {
  const productId = event.subject['productId'];
  if (productId === undefined || productId === '') throw invalidEvent(event, 'subject.productId');
  const distinct: DistinctGuard = { set: 'TRACED_PRODUCTS', member: productId, op };
  return { counter: 'MAX_TRACED_PRODUCTS', delta: op === 'ADD' ? 1 : -1, distinct };
}

function withReservation(event: UsageEvent, delta: EventUsageDelta): EventUsageDelta {
  const key = event.data['reservationKey'];
  if (key === undefined) return delta;
  if (!isIdempotencyKey(key)) throw invalidEvent(event, 'data.reservationKey');
  return { ...delta, reservationKey: key };
}

function invalidEvent(event: UsageEvent, field: string) {
  return entitlementErrors.create('INVALID_EVENT', {
    details: { eventId: event.id, type: event.type, field },
  });
}
