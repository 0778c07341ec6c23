import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { countItems, EMPTY_SUMMARY, foldFacts, toFact, type EventFact } from '../src/domain/index.js';
import { ingestProductEvents, type IngestDeps } from '../src/operations/ingest-product-events.js';
import { ORPHAN_PART_GRACE_MS } from '../src/operations/housekeep.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { rawEventsRepository } from '../src/store/raw-events-repository.js';
import { SUMMARY_PARTS_COLLECTION, summaryPartsRepository } from '../src/store/summary-parts-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-06-01T00:00:00.000Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;

// New partners, each accepted and viewing: every event adds to what the summary keeps per
// connection, so a 300-event group changes more slots than the aggregate document keeps inline
// and its write inserts a summary part first.
function productEvents(tenantId: string, from: number, count: number): ProductEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const c = Math.floor(n / 2);
    return {
      id: randomUUID(),
      type: n % 2 === 0 ? 'connection.accepted' : 'product.viewed',
      tenantId,
      occurredAt: new Date(NOW.getTime() - (1_000 - n) * 60_000).toISOString(),
      subject: { connectionId: `c-${c}` },
      data: { partnerTenantId: `partner-${c}`, viewerTenantId: `partner-${c}` },
    };
  });
}

describe('housekeeping', () => {
  let bed: TestBed;
  let deps: IngestDeps;
  const lock = createTenantWriteLock();

  beforeAll(async () => {
    bed = await openTestBed('housekeeping');
    bed.clock.set(NOW);
    deps = storeIngestDeps(bed.db, bed.clock, { lock });
  });
  afterAll(async () => {
    await bed?.close();
  });

  const partIds = async (tenantId: string): Promise<string[]> =>
    (
      await bed.db
        .collection<{ _id: string }>(SUMMARY_PARTS_COLLECTION)
        .find({ tenantId }, { projection: { _id: 1 } })
        .toArray()
    )
      .map((part) => part._id)
      .sort();

  it('deletes old summary parts no aggregate names and raw events past retention, and nothing else', async () => {
    const tenantId = randomUUID();
    const all: EventFact[] = [];
    let seq = 0;
    for (let group = 0; group < 2; group += 1) {
      const events = productEvents(tenantId, group * 300, 300);
      all.push(...events.flatMap((e) => toFact(e) ?? []));
      const items = events.map((event) => ({ event, seq: (seq += 1) }));
      expect(await ingestProductEvents(deps, tenantId, items)).toMatchObject({ applied: 300 });
    }
    const named = (await deps.aggregates.load(tenantId)).summaryStorage.parts.map((ref) => ref.id).sort();
    expect(named.length).toBeGreaterThan(0);
    // What a crash leaves: a part inserted whose aggregate write never happened, for this tenant
    // and for a tenant whose first write never happened at all.
    const parts = summaryPartsRepository(bed.db);
    const slots = foldFacts(EMPTY_SUMMARY, all.slice(0, 20), NOW).slots;
    const orphan = await parts.insert(tenantId, slots, NOW);
    const stranger = randomUUID();
    const strangerOrphan = await parts.insert(stranger, slots, NOW);
    // Raw events: one past retention, the ingested ones recent.
    const raw = rawEventsRepository(bed.db);
    const expired = {
      id: randomUUID(),
      type: 'product.created',
      occurredAt: NOW.toISOString(),
      subject: {},
      data: {},
    };
    await raw.append(tenantId, [expired], new Date(NOW.getTime() - 181 * DAY));

    // Inside the grace period nothing is a candidate: a part just inserted may be about to be named.
    expect(await bed.app.runHousekeeping()).toEqual({
      rawEventsPruned: 1,
      partsLookedAt: 0,
      orphanPartsDeleted: 0,
    });
    expect(await partIds(tenantId)).toEqual([...named, orphan.id].sort());

    // Past it, the parts nobody names go and the named ones stay; a part inserted meanwhile waits.
    bed.clock.set(new Date(NOW.getTime() + ORPHAN_PART_GRACE_MS + HOUR));
    const young = await parts.insert(tenantId, slots, bed.clock.now());
    const report = await bed.app.runHousekeeping();
    expect(report).toMatchObject({ rawEventsPruned: 0, orphanPartsDeleted: 2 });
    expect(report.partsLookedAt).toBeGreaterThanOrEqual(named.length + 2);
    expect(await partIds(tenantId)).toEqual([...named, young.id].sort());
    expect(await partIds(stranger)).toEqual([]);
    expect(strangerOrphan.id).not.toBe(orphan.id);
    expect(await rawEventsRepository(bed.db).countFor(tenantId)).toBe(all.length);

    // The tenant reads the same from a cold replica: every part its aggregate names is there.
    const cold = aggregatesRepository(bed.db, createTenantWriteLock(), summaryPartsRepository(bed.db));
    expect((await cold.load(tenantId)).summary).toEqual({
      ...foldFacts(EMPTY_SUMMARY, all, NOW),
      items: countItems(all),
    });
    // Idempotent.
    expect(await bed.app.runHousekeeping()).toMatchObject({ rawEventsPruned: 0, orphanPartsDeleted: 0 });
  }, 120_000);
});
