import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { BSON } from 'mongodb';
import type { ProductEvent } from '@tap/contracts';
import {
  countItems,
  EMPTY_SUMMARY,
  foldFacts,
  recompute,
  toFact,
  type EventFact,
} from '../src/domain/index.js';
import { ingestProductEvents, type IngestDeps } from '../src/operations/ingest-product-events.js';
import { AGGREGATES_COLLECTION } from '../src/store/aggregate-document.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { migrateInlineSummaries } from '../src/store/migrate-inline-summaries.js';
import { INLINE_SLOT_FACTS, MAX_SUMMARY_PARTS } from '../src/store/summary-layout.js';
import {
  SUMMARY_PARTS_COLLECTION,
  summaryPartsRepository,
  type SummaryPartsRepository,
} from '../src/store/summary-parts-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-06-01T00:00:00.000Z');

// A network hub adding partners, each invited, accepted and viewing the tenant's products over
// the last few days: every event adds to what the summary keeps per connection (its slots grow
// with the partners, as a tenant with thousands of connections would; products no longer grow
// it, they are item markers). Invitations are accepted at once, so the risk ledger stays empty.
function itemEvents(tenantId: string, from: number, count: number): ProductEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const c = Math.floor(n / 3);
    const kind = ['connection.invited', 'connection.accepted', 'product.viewed'][n % 3] as string;
    return {
      id: randomUUID(),
      type: kind,
      tenantId,
      occurredAt: new Date(NOW.getTime() - (7_000 - n) * 60_000).toISOString(),
      subject: { connectionId: `c-${c}` },
      data: { partnerTenantId: `partner-${c}`, viewerTenantId: `partner-${c}` },
    } as ProductEvent;
  });
}

/** The summary one fold of the whole history gives, with the item counters the markers keep. */
function wholeSummary(facts: readonly EventFact[]) {
  return { ...foldFacts(EMPTY_SUMMARY, facts, NOW), items: countItems(facts) };
}

describe('the summary stored in parts', () => {
  let bed: TestBed;
  let deps: IngestDeps;
  const lock = createTenantWriteLock();
  let parts: SummaryPartsRepository;

  beforeAll(async () => {
    bed = await openTestBed('summary_parts');
    bed.clock.set(NOW);
    parts = summaryPartsRepository(bed.db);
    deps = storeIngestDeps(bed.db, bed.clock, { lock, parts });
  });
  afterAll(async () => {
    await bed?.close();
  });

  const documentBytes = async (tenantId: string): Promise<number> => {
    const doc = await bed.db.collection(AGGREGATES_COLLECTION).findOne({ _id: tenantId as never });
    return BSON.calculateObjectSize(doc ?? {});
  };

  it('keeps the tenant’s document small while its items grow, and reads back the whole summary', async () => {
    const tenantId = randomUUID();
    const all: EventFact[] = [];
    const sizes: number[] = [];
    let seq = 0;
    for (let group = 0; group < 30; group += 1) {
      const events = itemEvents(tenantId, group * 200, 200);
      all.push(...events.flatMap((e) => toFact(e) ?? []));
      const items = events.map((event) => ({ event, seq: (seq += 1) }));
      expect(await ingestProductEvents(deps, tenantId, items)).toMatchObject({ applied: 200 });
      sizes.push(await documentBytes(tenantId));
    }
    // 2,000 partners later, the document is no larger than after the first
    // groups: what grows lives in parts (before them it passed 2 MB). What stays is bounded:
    // counters, the inline layer, 1,000 recent ids (~46 KB).
    expect(Math.max(...sizes)).toBeLessThan(120_000);
    // Another replica (a cold cache) reads the same summary as one fold of the whole history.
    const cold = aggregatesRepository(bed.db, createTenantWriteLock(), summaryPartsRepository(bed.db));
    const stored = await cold.load(tenantId);
    const whole = wholeSummary(all);
    expect(stored.summary).toEqual(whole);
    const input = {
      companyId: tenantId,
      pathProfile: 'SUPPLIER' as const,
      manualCompletions: [],
      capabilities: [],
      previousBand: null,
      version: stored.version,
      now: NOW,
    };
    expect(recompute({ ...input, facts: stored.facts })).toEqual(recompute({ ...input, facts: all }));
    // Rebases bound the parts, and the parts they replaced are gone (deleted in the background).
    await parts.settled();
    expect(stored.summaryStorage.parts.length).toBeLessThanOrEqual(MAX_SUMMARY_PARTS);
    expect(await bed.db.collection(SUMMARY_PARTS_COLLECTION).countDocuments({ tenantId })).toBe(
      stored.summaryStorage.parts.length,
    );
  }, 300_000);

  it('moves a large inline summary to a part on start-up, reading the same before and after', async () => {
    const tenantId = randomUUID();
    const facts = itemEvents(tenantId, 0, 1_500).flatMap((e) => toFact(e) ?? []);
    const summary = foldFacts(EMPTY_SUMMARY, facts, NOW);
    expect(summary.slots.length).toBeGreaterThan(INLINE_SLOT_FACTS);
    // As the previous release left it: every slot inline, no parts.
    await bed.db.collection(AGGREGATES_COLLECTION).insertOne({
      _id: tenantId as never,
      summary,
      recentEventIds: [],
      lastSeq: 0,
      manualCompletions: [],
      version: 7,
      lastBand: null,
      tier: null,
      signals: [],
      driftRevision: 7,
      scheduledCheck: null,
      outbox: [],
      updatedAt: NOW,
    });
    const before = await deps.aggregates.load(tenantId);
    const bytesBefore = await documentBytes(tenantId);
    const report = await migrateInlineSummaries(bed.db, summaryPartsRepository(bed.db), NOW);
    expect(report.migrated).toBeGreaterThanOrEqual(1);
    expect(await documentBytes(tenantId)).toBeLessThan(bytesBefore / 10);
    const after = await aggregatesRepository(bed.db, createTenantWriteLock()).load(tenantId);
    expect(after.summary).toEqual(before.summary);
    expect(after.version).toBe(7);
    // Idempotent, and the start-up path runs it.
    expect(await migrateInlineSummaries(bed.db, summaryPartsRepository(bed.db), NOW)).toEqual({
      migrated: 0,
      skipped: 0,
    });
    await bed.app.prepare();
    // The next events land on top of the migrated layout.
    const more = itemEvents(tenantId, 1_500, 30);
    const items = more.map((event, i) => ({ event, seq: i + 1 }));
    expect(await ingestProductEvents(deps, tenantId, items)).toMatchObject({ applied: 30 });
    const next = await aggregatesRepository(bed.db, createTenantWriteLock()).load(tenantId);
    const moreFacts = more.flatMap((e) => toFact(e) ?? []);
    // The document was stored without item counters (its summary held no item slots either), so
    // only the new events' items are counted.
    expect(next.summary).toEqual({
      ...foldFacts(EMPTY_SUMMARY, [...facts, ...moreFacts], NOW),
      items: countItems(moreFacts),
    });
  }, 300_000);

  it('writes parts packed and still reads parts written field by field', async () => {
    const tenantId = randomUUID();
    const facts = itemEvents(tenantId, 0, 600).flatMap((e) => toFact(e) ?? []);
    const summary = foldFacts(EMPTY_SUMMARY, facts, NOW);
    const collection = bed.db.collection<{ _id: string } & Record<string, unknown>>(SUMMARY_PARTS_COLLECTION);
    // A part as the previous release wrote it: each fact once, slots naming them by id.
    const oldId = `${tenantId}:${randomUUID()}`;
    const byId = new Map(summary.slots.flatMap((slot) => slot.facts.map((f) => [f.id, f] as const)));
    await collection.insertOne({
      _id: oldId,
      tenantId,
      facts: [...byId.values()],
      slots: summary.slots.map((slot) => ({
        key: slot.key,
        keep: slot.keep,
        n: slot.n,
        expiresAt: slot.expiresAt,
        ids: slot.facts.map((f) => f.id),
      })),
      createdAt: NOW,
    });
    // A fresh repository: nothing cached, every part read from the store.
    const written = await summaryPartsRepository(bed.db).insert(tenantId, summary.slots, NOW);
    const stored = await collection.findOne({ _id: written.id });
    expect(stored?.['packed']).toBeDefined();
    expect(stored?.['facts']).toBeUndefined();
    const read = await summaryPartsRepository(bed.db).read(tenantId, [
      { id: oldId, facts: written.facts },
      written,
    ]);
    expect(read).toEqual([summary.slots, summary.slots]);
  });
});
