import {
  countTouches,
  firstTouches,
  itemTouches,
  pairLookups,
  type EventFact,
  type ItemCounts,
} from '../domain/index.js';
import type { ItemMarkers } from '../ports.js';

/** A fact of the group being applied, with its stream sequence when the consumer knows it. */
export interface SequencedFact {
  readonly fact: EventFact;
  readonly seq: number | null;
}

/**
 * What a tenant's group of new facts adds to its distinct-item counters: the group's markers go
 * in with one unordered insert, and only the items seen for the first time count (see
 * domain/items). Cost: the group's size, plus one lookup per item seen for the first time in a
 * space that pairs with another (a product's first view, trace, passport or archive), whatever
 * the tenant already holds.
 *
 * Exactly once across crashes: the fence is raised before the markers go in, so when a group is
 * applied again (its markers in, its tenant's write lost), a duplicate of an event under the
 * fence is read back, and counts if this same event put it there.
 */
export async function countDistinctItems(
  markers: ItemMarkers,
  tenantId: string,
  group: readonly SequencedFact[],
): Promise<ItemCounts> {
  const touches = itemTouches(group.map((g) => g.fact));
  if (touches.length === 0) return {};
  const seqOf = new Map(group.map((g) => [g.fact.id, g.seq]));
  const highest = Math.max(0, ...group.map((g) => g.seq ?? 0));
  const fencedBefore = highest > 0 ? await markers.fence(tenantId, highest) : 0;
  // The first touch of each key is the one whose event the marker names.
  const byKey = new Map<string, (typeof touches)[number]>();
  for (const touch of touches) if (!byKey.has(touch.key)) byKey.set(touch.key, touch);
  const candidates = [...byKey.values()];
  const inserted = await markers.insertFirst(
    tenantId,
    candidates.map((t) => ({ key: t.key, eventId: t.eventId })),
  );
  const suspects = candidates.filter((t) => {
    if (inserted.has(t.key)) return false;
    const seq = seqOf.get(t.eventId) ?? null;
    return seq === null || seq <= fencedBefore;
  });
  const heldBefore = await markers.find(
    tenantId,
    suspects.map((t) => t.key),
  );
  const firsts = firstTouches(touches, inserted, heldBefore);
  const partners = await markers.find(tenantId, pairLookups(touches, firsts));
  return countTouches(touches, firsts, partners);
}
