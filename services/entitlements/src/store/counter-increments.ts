import type { CounterDelta } from '../domain/index.js';
import type { UsageRecord } from '../operations/ports/usage-repository.js';
import { counterPath, readCounter } from './usage-document.js';

/** `$inc` of one update, and the filter conditions that keep every decrement from going below 0. */
export interface PlannedIncrements {
  readonly inc: Record<string, number>;
  readonly guards: Record<string, { $gte: number }>;
}

/**
 * Turns deltas into one update's `$inc`, clamped at zero against `doc` as read (the domain's
 * `applyCounterDelta` semantics). Each decrement is guarded with `$gte` its size, so if the
 * counter moved since the read, the update matches nothing and the caller reads and plans again.
 * Plain query operators only: FerretDB v1 has no `$expr`.
 */
export function planIncrements(doc: UsageRecord | null, deltas: readonly CounterDelta[]): PlannedIncrements {
  const byPath = new Map<string, { used: number; held: number; current: { used: number; held: number } }>();
  for (const change of deltas) {
    const path = counterPath(change.counter, change.period);
    const entry = byPath.get(path) ?? {
      used: 0,
      held: 0,
      current: readCounter(doc, change.counter, change.period),
    };
    entry.used += change.delta;
    entry.held += change.heldDelta ?? 0;
    byPath.set(path, entry);
  }
  const inc: Record<string, number> = {};
  const guards: Record<string, { $gte: number }> = {};
  for (const [path, entry] of byPath) {
    for (const field of ['used', 'held'] as const) {
      const amount = Math.max(entry[field], -entry.current[field]);
      if (amount === 0) continue;
      inc[`${path}.${field}`] = amount;
      if (amount < 0) guards[`${path}.${field}`] = { $gte: -amount };
    }
  }
  return { inc, guards };
}
