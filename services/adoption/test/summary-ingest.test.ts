import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { recompute, type EventFact } from '../src/domain/index.js';
import { ingestProductEvents, type IngestDeps } from '../src/operations/ingest-product-events.js';
import { AGGREGATES_COLLECTION } from '../src/store/aggregate-document.js';
import { migrateFactArrays } from '../src/store/migrate-fact-arrays.js';
import { RAW_EVENTS_COLLECTION, rawEventsRepository } from '../src/store/raw-events-repository.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-06-01T00:00:00.000Z');
const DAY = 86_400_000;

function event(
  tenantId: string,
  type: string,
  minutesAgo: number,
  subject: Record<string, string>,
): ProductEvent {
  return {
    id: randomUUID(),
    type,
    tenantId,
    occurredAt: new Date(NOW.getTime() - minutesAgo * 60_000).toISOString(),
    subject,
    data: {},
  } as ProductEvent;
}

/** A supplier's busy history: a profile, then `count` events creating and updating `products` products over 30 days. */
function busyHistory(tenantId: string, count: number, products: number): ProductEvent[] {
  const events = [event(tenantId, 'company.profile_completed', 30 * 24 * 60, {})];
  for (let i = 0; i < count; i += 1) {
    const productId = `p-${i % products}`;
    const minutesAgo = Math.floor(((count - i) / count) * 30 * 24 * 60);
    events.push(
      event(tenantId, i < products ? 'product.created' : 'product.updated', minutesAgo, { productId }),
    );
  }
  return events;
}

describe('the bounded aggregate on the real Mongo-wire server', () => {
  let bed: TestBed;
  let deps: IngestDeps;

  beforeAll(async () => {
    bed = await openTestBed('summary');
    bed.clock.set(NOW);
    deps = storeIngestDeps(bed.db, bed.clock);
  });
  afterAll(async () => {
    await bed?.close();
  });

  const groups = <T>(items: readonly T[], size: number): T[][] =>
    Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

  it('keeps applying a tenant’s events past the 20,000 that used to be refused, at one write per group', async () => {
    const tenantId = randomUUID();
    const history = busyHistory(tenantId, 21_000, 300);
    let seq = 0;
    for (const group of groups(history, 1_000)) {
      const items = group.map((e) => ({ event: e, seq: (seq += 1) }));
      expect(await ingestProductEvents(deps, tenantId, items)).toMatchObject({ applied: group.length });
    }
    const stored = await deps.aggregates.load(tenantId);
    expect(stored.appliedEvents).toBe(history.length);
    expect(stored.version).toBe(22);
    expect(stored.lastSeq).toBe(history.length);
    // Bounded by the 300 products (and the days of activity), not by the 21,001 events.
    expect(stored.facts.length).toBeLessThan(300 + 500);
    expect(await rawEventsRepository(bed.db).countFor(tenantId)).toBe(history.length);
  }, 300_000);

  it('applies a redelivered group, a duplicate inside a group and a group written but not acknowledged once', async () => {
    const tenantId = randomUUID();
    const [a, b, c] = [
      event(tenantId, 'company.profile_completed', 60, {}),
      event(tenantId, 'product.created', 50, { productId: 'p-1' }),
      event(tenantId, 'product.created', 40, { productId: 'p-2' }),
    ] as [ProductEvent, ProductEvent, ProductEvent];
    const first = [
      { event: a, seq: 10 },
      { event: b, seq: 11 },
      { event: b, seq: 11 },
    ];
    expect(await ingestProductEvents(deps, tenantId, first)).toEqual({
      applied: 2,
      duplicates: 1,
      ignored: 0,
      rejected: [],
      unlogged: [],
    });
    // The process died after the write and before the acks: the whole group comes again.
    expect(await ingestProductEvents(deps, tenantId, first)).toEqual({
      applied: 0,
      duplicates: 3,
      ignored: 0,
      rejected: [],
      unlogged: [],
    });
    // A producer retry outside the stream's duplicate window: new sequence, same event id.
    expect(await ingestProductEvents(deps, tenantId, [{ event: b, seq: 12 }])).toMatchObject({ applied: 0 });
    expect(await ingestProductEvents(deps, tenantId, [{ event: c, seq: 13 }])).toMatchObject({ applied: 1 });
    // Handed back by a stopped consumer and delivered again after later ones: applied, not skipped.
    const late = event(tenantId, 'product.created', 45, { productId: 'p-3' });
    expect(await ingestProductEvents(deps, tenantId, [{ event: late, seq: 9 }])).toMatchObject({
      applied: 1,
    });
    expect(await ingestProductEvents(deps, tenantId, [{ event: late, seq: 9 }])).toMatchObject({
      applied: 0,
    });
    const stored = await deps.aggregates.load(tenantId);
    expect({ version: stored.version, applied: stored.appliedEvents, lastSeq: stored.lastSeq }).toEqual({
      version: 3,
      applied: 4,
      lastSeq: 13,
    });
    expect(await rawEventsRepository(bed.db).countFor(tenantId)).toBe(4);
  });

  it('migrates an aggregate holding its facts in one array to a summary that reads the same', async () => {
    const tenantId = randomUUID();
    const facts: EventFact[] = busyHistory(tenantId, 20_500, 2_000).map((e) => ({
      id: e.id,
      type: e.type,
      occurredAt: e.occurredAt,
      subject: e.subject,
      data: {},
    }));
    const tier = { tierCode: 'CORE', pathProfile: 'SUPPLIER' as const, capabilities: ['BULK_UPLOAD'] };
    await bed.db.collection(AGGREGATES_COLLECTION).insertOne({
      _id: tenantId as never,
      facts,
      manualCompletions: [],
      version: facts.length,
      lastBand: 'HEALTHY',
      tier,
      signals: [],
      driftRevision: facts.length,
      scheduledCheck: null,
      outbox: [],
      updatedAt: new Date(NOW.getTime() - DAY),
    });
    const report = await migrateFactArrays(bed.db, NOW);
    expect(report.migrated).toBeGreaterThanOrEqual(1);
    expect(report.skipped).toBe(0);
    const doc = await bed.db.collection(AGGREGATES_COLLECTION).findOne({ _id: tenantId as never });
    expect(doc?.['facts']).toBeUndefined();
    const stored = await deps.aggregates.load(tenantId);
    expect(stored.version).toBe(facts.length);
    const input = {
      companyId: tenantId,
      pathProfile: tier.pathProfile,
      manualCompletions: [],
      capabilities: tier.capabilities,
      previousBand: 'HEALTHY' as const,
      version: stored.version,
      now: NOW,
    };
    expect(recompute({ ...input, facts: stored.facts })).toEqual(recompute({ ...input, facts }));
    expect(await rawEventsRepository(bed.db).countFor(tenantId)).toBe(facts.length);
    // Idempotent: nothing left to migrate, and the start-up path runs it without complaint.
    expect(await migrateFactArrays(bed.db, NOW)).toEqual({ migrated: 0, skipped: 0 });
    await bed.app.prepare();
  }, 300_000);

  it('keeps raw events in their own collection with a retention index, and prunes what retention lets go', async () => {
    await bed.app.prepare();
    const indexes = await bed.db.collection(RAW_EVENTS_COLLECTION).indexes();
    // A TTL index on MongoDB; on FerretDB v1, which has none, a plain index the pruning uses.
    const retention = indexes.find((i) => i.name === 'received_at_ttl' || i.name === 'received_at');
    expect(retention?.name === 'received_at' || (retention?.expireAfterSeconds ?? 0) > 0).toBe(true);
    expect(indexes.some((i) => i.name === 'tenant_ids')).toBe(true);
    const tenantId = randomUUID();
    const raw = rawEventsRepository(bed.db);
    const old = {
      id: randomUUID(),
      type: 'product.created',
      occurredAt: NOW.toISOString(),
      subject: {},
      data: {},
    };
    await raw.append(tenantId, [old], new Date(NOW.getTime() - 400 * DAY));
    await raw.append(tenantId, [old], NOW);
    expect(await raw.countFor(tenantId)).toBe(1);
    expect(await raw.pruneBefore(new Date(NOW.getTime() - 180 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await raw.countFor(tenantId)).toBe(0);
  });
});
