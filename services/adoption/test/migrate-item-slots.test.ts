import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EMPTY_SUMMARY, foldFacts, type EventFact, type SummarySlot } from '../src/domain/index.js';
import { fact } from '../src/domain/testing/fact-builders.js';
import { AGGREGATES_COLLECTION, emptyAggregate, packSummary } from '../src/store/aggregate-document.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { itemMarkersRepository } from '../src/store/item-markers-repository.js';
import { migrateItemSlots } from '../src/store/migrate-item-slots.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { ingestProductEvents } from '../src/operations/ingest-product-events.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

/** The per-item slots a summary kept before markers (retention.ts of that time). */
function oldItemSlots(facts: readonly EventFact[]): SummarySlot[] {
  const slots = new Map<string, SummarySlot>();
  for (const f of facts) {
    const ref = f.subject['productId'] ?? f.subject['connectionId'];
    const key =
      f.type === 'product.created' || f.type === 'product.archived'
        ? `l|product.created|${ref}`
        : f.type === 'connection.accepted'
          ? `l|connection.accepted|${ref}`
          : `d|${f.type}|${ref}`;
    const keep = key.startsWith('l|') ? 'last' : 'first';
    const previous = slots.get(key);
    if (previous === undefined || keep === 'last')
      slots.set(key, { key, keep, n: 1, expiresAt: null, facts: [f] });
  }
  return [...slots.values()];
}

describe('the migration of stored summaries to item markers', () => {
  let bed: TestBed;
  beforeAll(async () => {
    bed = await openTestBed('migrate-items');
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('moves per-item slots to markers and counters, once, and the consumer counts on from there', async () => {
    const facts = [
      ...Array.from({ length: 300 }, (_, i) =>
        fact('product.created', 1 + i / 1000, { productId: `p-${i}` }),
      ),
      fact('product.archived', 2, { productId: 'p-0' }),
      ...Array.from({ length: 40 }, (_, i) => fact('product.viewed', 3 + i / 1000, { productId: `p-${i}` })),
      fact('connection.accepted', 1, { connectionId: 'c-1' }),
    ];
    const folded = foldFacts(EMPTY_SUMMARY, facts, new Date('2025-01-10T00:00:00Z'));
    const { items: _dropped, ...withoutCounters } = folded;
    const oldSummary = { ...withoutCounters, slots: [...folded.slots, ...oldItemSlots(facts)] };
    const { itemMarkers: _schema, ...oldFields } = emptyAggregate(new Date(0));
    await bed.db
      .collection(AGGREGATES_COLLECTION)
      .insertOne({ _id: 't-old' as never, ...oldFields, version: 7, summary: packSummary(oldSummary) });

    const markers = itemMarkersRepository(bed.db);
    const repo = aggregatesRepository(bed.db, createTenantWriteLock());
    const load = (tenantId: string) => repo.load(tenantId);
    expect(await migrateItemSlots(bed.db, markers, load, new Date())).toEqual({ migrated: 1, skipped: 0 });
    const migrated = await repo.load('t-old');
    expect(migrated.summary.items).toEqual({
      product: 300,
      archived: 1,
      'archived+product': 1,
      viewed: 40,
      'viewed+product': 40,
      'viewed+archived': 1,
    });
    expect(migrated.summary.slots.filter((s) => s.key.startsWith('d|'))).toEqual([]);
    expect(migrated.summary.slots.map((s) => s.key)).toContain('l|c-1');
    expect(migrated.summary.applied).toBe(folded.applied);
    expect(await markers.countFor('t-old', 'product')).toBe(300);
    // The consumer counts on from the migrated counters: p-1 is known, p-300 is new.
    const ingest = storeIngestDeps(bed.db, bed.clock);
    const again = (id: string, n: number) => ({
      event: {
        ...fact('product.created', 5, { productId: id }),
        id: `again-${n}`,
        tenantId: 't-old',
      } as never,
      seq: n,
    });
    await ingestProductEvents(ingest, 't-old', [again('p-1', 1), again('p-300', 2)]);
    expect((await repo.load('t-old')).summary.items).toMatchObject({ product: 301 });
    // Idempotent: a second start finds nothing to do.
    expect(await migrateItemSlots(bed.db, markers, load, new Date())).toEqual({ migrated: 0, skipped: 0 });
  });
});
