import type { EventKind } from '../catalogue/event-kinds.js';
import type { EventFact } from '../facts/facts.js';

/**
 * Distinct items, counted without holding them (docs/adoption-model.md, "Distinct items"). Each
 * (tenant, space, item) has one unique-keyed marker in the store; a fact counts when its marker is
 * inserted for the first time, so a tenant's first product and its 500,000th cost the same, and
 * neither the service's memory nor the tenant's document ever holds the items themselves.
 *
 * A pair counts items that are in two spaces (a product that was created and viewed). It is
 * counted once, by whichever of its two markers appears later, and only from the side named
 * `on`: a product's creation never looks for views, since a partner can only view a product
 * that exists (a view that arrives before its product's creation is not paired).
 */

/** What a marker space holds: one item per (tenant, space, item). */
export type ItemSpace =
  | 'product'
  | 'archived'
  | 'viewed'
  | 'traced'
  | 'passport'
  | 'policy'
  | 'policy_viewed'
  | 'request'
  | 'import'
  | 'integration'
  | 'data_set'
  | 'cascade';

// The subject field naming the item; a fact without it is an item of its own (its id), except an
// archive, which withdraws nothing it cannot name.
const SPACE_OF_KIND: Partial<Record<EventKind, { space: ItemSpace; ref: string; named?: true }>> = {
  'product.created': { space: 'product', ref: 'productId' },
  'product.archived': { space: 'archived', ref: 'productId', named: true },
  'product.viewed': { space: 'viewed', ref: 'productId' },
  'trace.recorded': { space: 'traced', ref: 'productId' },
  'passport.published': { space: 'passport', ref: 'productId' },
  'policy.published': { space: 'policy', ref: 'policyId' },
  'policy.viewed': { space: 'policy_viewed', ref: 'policyId' },
  'data_request.sent': { space: 'request', ref: 'requestId' },
  'data_request.answered': { space: 'request', ref: 'requestId' },
  'import.completed': { space: 'import', ref: 'importId' },
  'integration.succeeded': { space: 'integration', ref: 'integrationId' },
  'data_set.expected': { space: 'data_set', ref: 'dataSetId' },
  'cascade.started': { space: 'cascade', ref: 'cascadeId' },
};

/** Two spaces whose shared items are counted, checked when a marker of `on` first appears. */
interface PairRule {
  readonly on: ItemSpace;
  readonly with: ItemSpace;
  readonly counter: string;
}

// prettier-ignore
const PAIRS: readonly PairRule[] = [
  { on: 'viewed', with: 'product', counter: 'viewed+product' },
  { on: 'archived', with: 'product', counter: 'archived+product' },
  { on: 'viewed', with: 'archived', counter: 'viewed+archived' },
  { on: 'archived', with: 'viewed', counter: 'viewed+archived' },
  { on: 'viewed', with: 'traced', counter: 'viewed+traced' },
  { on: 'traced', with: 'viewed', counter: 'viewed+traced' },
  { on: 'viewed', with: 'passport', counter: 'viewed+passport' },
  { on: 'passport', with: 'viewed', counter: 'viewed+passport' },
  { on: 'policy_viewed', with: 'policy', counter: 'policy_viewed+policy' },
];

/** Counters of distinct items: one per space (`product`, ...) and one per pair (`viewed+product`, ...). */
export type ItemCounts = Readonly<Record<string, number>>;

/** One fact's claim on an item, in the order the facts are applied. */
export interface ItemTouch {
  /** `${space}|${item}`: the marker's key within the tenant. */
  readonly key: string;
  readonly space: ItemSpace;
  readonly item: string;
  readonly eventId: string;
  /** Position in the group being applied: within a group, an earlier touch came first. */
  readonly index: number;
}

/** The marker key of an item in a space. */
export function markerKey(space: ItemSpace, item: string): string {
  return `${space}|${item}`;
}

/** The items the facts touch, in their order (a fact touches at most one). */
export function itemTouches(facts: readonly EventFact[]): readonly ItemTouch[] {
  const touches: ItemTouch[] = [];
  for (const fact of facts) {
    const rule = SPACE_OF_KIND[fact.type as EventKind];
    if (rule === undefined) continue;
    const named = fact.subject[rule.ref];
    if (named === undefined && rule.named) continue;
    const item = named ?? `#${fact.id}`;
    touches.push({
      key: markerKey(rule.space, item),
      space: rule.space,
      item,
      eventId: fact.id,
      index: touches.length,
    });
  }
  return touches;
}

/** A marker as stored: which event put it there. */
export interface StoredMarker {
  readonly eventId: string;
}

/**
 * The touches whose marker this group puts in first: the first touch of each key that the
 * store did not hold (`inserted`), or held from this very event (a retry after a crash between
 * the markers and the tenant's write: the markers stayed, the counts did not).
 */
export function firstTouches(
  touches: readonly ItemTouch[],
  inserted: ReadonlySet<string>,
  heldBefore: ReadonlyMap<string, StoredMarker>,
): readonly ItemTouch[] {
  const seen = new Set<string>();
  return touches.filter((touch) => {
    if (seen.has(touch.key)) return false;
    seen.add(touch.key);
    return inserted.has(touch.key) || heldBefore.get(touch.key)?.eventId === touch.eventId;
  });
}

/** The markers to look up to count pairs: the partners of each first touch this group does not settle. */
export function pairLookups(touches: readonly ItemTouch[], firsts: readonly ItemTouch[]): readonly string[] {
  const inGroup = new Set(touches.map((t) => t.key));
  const keys = new Set<string>();
  for (const touch of firsts) {
    for (const pair of PAIRS) {
      if (pair.on !== touch.space) continue;
      const partner = markerKey(pair.with, touch.item);
      if (!inGroup.has(partner)) keys.add(partner);
    }
  }
  return [...keys];
}

/**
 * What the group adds to the tenant's counters: one per first touch of a space, one per pair
 * completed by a first touch whose partner marker came earlier (earlier in the group, or held
 * by the store from another event).
 */
export function countTouches(
  touches: readonly ItemTouch[],
  firsts: readonly ItemTouch[],
  partners: ReadonlyMap<string, StoredMarker>,
): ItemCounts {
  const firstIndex = new Map(firsts.map((t) => [t.key, t.index]));
  const groupEvents = new Map(touches.map((t) => [t.eventId, t.index]));
  // A touched key that is not a first touch was held before this group: it came earlier.
  const touchedIndex = new Map<string, number>();
  for (const t of touches) if (!touchedIndex.has(t.key)) touchedIndex.set(t.key, firstIndex.get(t.key) ?? -1);
  const counts: Record<string, number> = {};
  const add = (counter: string) => (counts[counter] = (counts[counter] ?? 0) + 1);
  for (const touch of firsts) {
    add(touch.space);
    for (const pair of PAIRS) {
      if (pair.on !== touch.space) continue;
      const partner = markerKey(pair.with, touch.item);
      const inGroup = touchedIndex.get(partner);
      const stored = partners.get(partner);
      // A stored partner put there by a later event of this group (a retry) is not earlier.
      const storedIndex = stored === undefined ? undefined : (groupEvents.get(stored.eventId) ?? -1);
      const partnerIndex = inGroup ?? storedIndex;
      if (partnerIndex !== undefined && partnerIndex < touch.index) add(pair.counter);
    }
  }
  return counts;
}

/** The counters with the group's additions. */
export function addItemCounts(counts: ItemCounts, added: ItemCounts): ItemCounts {
  const sum: Record<string, number> = { ...counts };
  for (const [counter, n] of Object.entries(added)) sum[counter] = (sum[counter] ?? 0) + n;
  return sum;
}

/** One counter, 0 when never counted. */
export function itemCount(counts: ItemCounts, counter: string): number {
  return counts[counter] ?? 0;
}

/**
 * The counters of a history held whole in memory, as the markers would count it applied in
 * time order: for tests, and for the migration of summaries stored before markers.
 */
export function countItems(facts: readonly EventFact[]): ItemCounts {
  const ordered = [...facts].sort((a, b) =>
    a.occurredAt !== b.occurredAt
      ? a.occurredAt < b.occurredAt
        ? -1
        : 1
      : a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0,
  );
  const touches = itemTouches(ordered);
  const none = new Map<string, StoredMarker>();
  // An empty store: every key's first touch inserts its marker.
  const firsts = firstTouches(touches, new Set(touches.map((t) => t.key)), none);
  return countTouches(touches, firsts, none);
}
