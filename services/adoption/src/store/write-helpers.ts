import type { Filter } from 'mongodb';
import { emptyAggregate, type AggregateDocument } from './aggregate-document.js';

/** MongoDB's duplicate-key error: an upsert lost to an existing document with that _id. */
export const DUPLICATE_KEY = 11_000;

/** True for the duplicate-key error a losing conditional upsert raises. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === DUPLICATE_KEY;
}

/**
 * A filter on a counter. Counter 0 also matches a document without the field (written before
 * the field existed), so old aggregates are not stuck behind a condition they cannot meet.
 */
export function counterIs(value: number): Filter<AggregateDocument>['version'] {
  // `null` in $in matches a missing field; the driver's filter type does not know that.
  return value === 0 ? { $in: [0, null as unknown as number] } : value;
}

/**
 * `$setOnInsert` for an upsert that creates the tenant's document: every default except the
 * fields the same update already sets (MongoDB refuses two operators on one path).
 */
export function insertDefaults(
  now: Date,
  touched: readonly (keyof AggregateDocument)[],
): Partial<AggregateDocument> {
  const defaults: Partial<AggregateDocument> = emptyAggregate(now);
  for (const key of touched) delete defaults[key];
  return defaults;
}
