import type { Collection, Db } from 'mongodb';
import {
  addItemCounts,
  countItems,
  foldFacts,
  itemTouches,
  type EventFact,
  type SummarySlot,
  type TenantSummary,
} from '../domain/index.js';
import type { ItemMarkers } from '../ports.js';
import {
  AGGREGATES_COLLECTION,
  ITEM_MARKERS_SCHEMA,
  packSummary,
  type AggregateDocument,
} from './aggregate-document.js';
import type { MigrationReport } from './migrate-fact-arrays.js';
import { counterIs } from './write-helpers.js';

/** Markers per insert while migrating a tenant (one unordered insertMany each). */
const MARKER_BATCH = 1_000;

// Summaries stored before markers kept one slot per distinct item: `d|<kind>|<ref>` (distinct
// refs) and `l|<kind>|<ref>` or `l|#<id>` (live products and connections).
const isItemSlot = (slot: SummarySlot): boolean =>
  slot.key.startsWith('d|') || /^l\|[a-z_]+\.[a-z_]+\|/.test(slot.key) || slot.key.startsWith('l|#');

// A live-item slot kept only its latest fact: an archive there stands for a creation before it.
function withCreation(fact: EventFact): EventFact[] {
  if (fact.type !== 'product.archived') return [fact];
  const created = {
    ...fact,
    id: `${fact.id}~created`,
    type: 'product.created',
    occurredAt: new Date(0).toISOString(),
  };
  return [created, fact];
}

/** The summary without its per-item slots, the items counted, the connections folded in again. */
export function summaryWithoutItemSlots(
  summary: TenantSummary,
  now: Date,
): {
  summary: TenantSummary;
  itemFacts: readonly EventFact[];
} {
  const itemSlots = summary.slots.filter(isItemSlot);
  const itemFacts = itemSlots.flatMap((slot) => slot.facts.flatMap(withCreation));
  const kept = { ...summary, slots: summary.slots.filter((slot) => !isItemSlot(slot)) };
  // Connections keep a live slot of their own (bounded by partners): folding their facts again
  // puts them there; the kind counters are restored after, so nothing is counted twice.
  const connections = itemFacts.filter((f) => f.type.startsWith('connection.'));
  const refolded = foldFacts(kept, connections, now);
  return {
    summary: {
      ...refolded,
      applied: summary.applied,
      kinds: summary.kinds,
      items: addItemCounts(summary.items ?? {}, countItems(itemFacts)),
    },
    itemFacts,
  };
}

/**
 * Start-up migration to item markers (docs/adoption-model.md, "Distinct items"): every aggregate
 * not at ITEM_MARKERS_SCHEMA gets markers for the items its summary held, the counters they add
 * up to, and a summary without them, written inline at its version (its old summary parts are
 * left unnamed, for housekeeping to remove). Markers are inserted before the write and are
 * idempotent, so a lost race is retried from the start. Runs before the consumer starts.
 */
export async function migrateItemSlots(
  db: Db,
  markers: ItemMarkers,
  loadSummary: (tenantId: string) => Promise<{ summary: TenantSummary; version: number }>,
  now: Date,
): Promise<MigrationReport> {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  let migrated = 0;
  let skipped = 0;
  const pending = await aggregates
    .find({ itemMarkers: { $ne: ITEM_MARKERS_SCHEMA } }, { projection: { _id: 1 } })
    .toArray();
  for (const { _id: tenantId } of pending) {
    let done = false;
    for (let attempt = 0; attempt < 3 && !done; attempt += 1) {
      const { summary, version } = await loadSummary(tenantId);
      const { summary: migratedSummary, itemFacts } = summaryWithoutItemSlots(summary, now);
      const touches = itemTouches(itemFacts);
      for (let i = 0; i < touches.length; i += MARKER_BATCH) {
        const batch = touches.slice(i, i + MARKER_BATCH);
        await markers.insertFirst(
          tenantId,
          batch.map((t) => ({ key: t.key, eventId: t.eventId })),
        );
      }
      const result = await aggregates.updateOne(
        { _id: tenantId, version: counterIs(version) },
        {
          $set: {
            summary: packSummary(migratedSummary),
            summaryParts: [],
            itemMarkers: ITEM_MARKERS_SCHEMA,
          },
        },
      );
      done = result.matchedCount === 1;
    }
    if (done) migrated += 1;
    else skipped += 1;
  }
  return { migrated, skipped };
}
