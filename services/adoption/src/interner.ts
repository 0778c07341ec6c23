import { deepFreeze } from '@tap/grpc-kit';

/** Distinct values an interner keeps; past it, values are handed back as they came. */
export const MAX_INTERNED_VALUES = 256;

/**
 * One frozen object per distinct value (by `keyOf`): a cache reload that brings back what it
 * already had returns the object the reads hold, so the memos keyed by identity (the recompute
 * memo, the answer memos) outlive a reload that changed nothing, instead of recomputing after
 * every 1 s reload of the tier and the upgrade contexts. A changed value has another key and is
 * a new object. Meant for the few distinct tier views and upgrade contexts (a handful of tiers,
 * a few capabilities each); bounded by MAX_INTERNED_VALUES.
 */
export function createInterner<T extends object>(keyOf: (value: T) => string): (value: T) => T {
  const known = new Map<string, T>();
  return (value) => {
    const key = keyOf(value);
    const kept = known.get(key);
    if (kept !== undefined) return kept;
    if (known.size >= MAX_INTERNED_VALUES) return value;
    const frozen = deepFreeze(value);
    known.set(key, frozen);
    return frozen;
  };
}
