import type { Filter } from 'mongodb';
import { emptyAggregate, type AggregateDocument } from './aggregate-document.js';

// A losing conditional upsert raises the duplicate-key error; one detector for every store.
export { isDuplicateKey } from '@tap/errors';

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
