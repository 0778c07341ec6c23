import type { SummarySlot, TenantSummary } from './tenant-summary.js';

/**
 * A summary's slots stored as layers (store/summary-parts-repository.ts): a base, the deltas
 * written since, and the small layer inline in the tenant's document. Each layer holds whole
 * slots; a later layer's slot replaces an earlier one with the same key. Slots are never
 * deleted, only expired by their own `expiresAt`, so no layer needs tombstones.
 */

/** How many facts a list of slots holds (what a layer costs to read and write). */
export function slotFactCount(slots: readonly SummarySlot[]): number {
  let count = 0;
  for (const slot of slots) count += slot.facts.length;
  return count;
}

const byKey = (a: SummarySlot, b: SummarySlot): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The slots the layers add up to, sorted by key, without those expired at `asOf` (the clock of
 * the write that left them: a fold at that instant had dropped them too).
 */
export function overlaySlots(layers: readonly (readonly SummarySlot[])[], asOf: number): SummarySlot[] {
  const merged = new Map<string, SummarySlot>();
  for (const layer of layers) for (const slot of layer) merged.set(slot.key, slot);
  return [...merged.values()].filter((s) => s.expiresAt === null || s.expiresAt > asOf).sort(byKey);
}

function sameSlot(a: SummarySlot, b: SummarySlot): boolean {
  if (a.facts.length !== b.facts.length || a.expiresAt !== b.expiresAt || a.n !== b.n) return false;
  return a.facts.every((fact, i) => fact.id === b.facts[i]?.id);
}

/**
 * The slots of `after` that `before` does not already hold as they are: what a write must store
 * so that the layers add up to `after`. Cost: the number of slots, no store access.
 */
export function changedSlots(before: TenantSummary, after: TenantSummary): SummarySlot[] {
  const previous = new Map(before.slots.map((s) => [s.key, s]));
  return after.slots.filter((slot) => {
    const was = previous.get(slot.key);
    return was === undefined || !sameSlot(was, slot);
  });
}
