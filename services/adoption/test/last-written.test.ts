import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import {
  ingestProductEvents,
  type IngestDeps,
  type IngestItem,
} from '../src/operations/ingest-product-events.js';
import { AGGREGATES_COLLECTION } from '../src/store/aggregate-document.js';
import { aggregatesRepository, type AggregatesRepository } from '../src/store/aggregates-repository.js';
import { driftRepository, type DriftRepository } from '../src/store/drift-repository.js';
import { ensureAdoptionIndexes } from '../src/store/indexes.js';
import { lastWrittenAggregates } from '../src/store/last-written-aggregates.js';
import { itemMarkersRepository } from '../src/store/item-markers-repository.js';
import { rawEventsRepository } from '../src/store/raw-events-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { PARTNER_1, productEvent } from './support/events.js';
import { SOME_PROJECTION } from './support/projection.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date('2025-06-02T08:00:00.000Z');

/**
 * The event consumer's memory of its own writes (store/last-written-aggregates.ts): a tenant's
 * next group folds on the aggregate it last wrote, without reading it, and a write by anyone
 * else since (another replica's completion or drift-watch record) is caught by the fence.
 */
describe('the consumer’s memory of its last write of each tenant', () => {
  let mongo: MongoClient;
  let db: Db;
  /** find commands on the aggregates collection since the last reset. */
  let aggregateFinds = 0;
  let now = T0;
  // The consumer's replica (with the memory) and another replica on the same database.
  let consumerSide: AggregatesRepository;
  let otherReplica: AggregatesRepository;
  let otherDrift: DriftRepository;
  let deps: IngestDeps;

  beforeAll(async () => {
    mongo = new MongoClient(infraUrls().mongoUrl, { monitorCommands: true });
    mongo.on('commandStarted', (event) => {
      if (event.commandName === 'find' && event.command['find'] === AGGREGATES_COLLECTION)
        aggregateFinds += 1;
    });
    db = mongo.db(testNamespace('adoption_last_written'));
    await ensureAdoptionIndexes(db, 180 * DAY);
    const lock = createTenantWriteLock();
    consumerSide = aggregatesRepository(db, lock, undefined, lastWrittenAggregates());
    const otherLock = createTenantWriteLock();
    otherReplica = aggregatesRepository(db, otherLock);
    otherDrift = driftRepository(db, otherLock);
    const drift = driftRepository(db, lock);
    deps = {
      aggregates: { load: consumerSide.loadForFacts, applyFacts: consumerSide.applyFacts },
      rawEvents: rawEventsRepository(db),
      markers: itemMarkersRepository(db),
      now: () => now,
      rescanMs: 15 * 60_000,
      schedule: (tenantId, at) => drift.schedule(tenantId, at),
      onTransitions: () => undefined,
    };
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  let seq = 0;
  const items = (events: readonly ProductEvent[]): IngestItem[] =>
    events.map((event) => ({ event, seq: (seq += 1) }));
  const products = (tenantId: string, from: number, count: number): ProductEvent[] =>
    Array.from({ length: count }, (_, i) =>
      productEvent(tenantId, 'product.created', { productId: `p-${from + i}` }, new Date(T0.getTime() + i)),
    );

  it('folds a tenant’s later groups on its own last write, reading the document once', async () => {
    now = T0;
    const tenantId = randomUUID();
    aggregateFinds = 0;
    for (let group = 0; group < 5; group += 1) {
      const outcome = await ingestProductEvents(deps, tenantId, items(products(tenantId, group * 40, 40)));
      expect(outcome.applied).toBe(40);
    }
    expect(aggregateFinds).toBe(1);
    // What it remembered is what the database holds.
    const stored = await otherReplica.load(tenantId);
    const remembered = await consumerSide.loadForFacts(tenantId);
    expect(stored.version).toBe(5);
    // The recent ids are stored as one string (one value for FerretDB to rewrite, not 200).
    const raw = await db.collection(AGGREGATES_COLLECTION).findOne({ _id: tenantId as never });
    expect(typeof raw?.['recentEventIds']).toBe('string');
    expect(stored.appliedEvents).toBe(200);
    expect(remembered).toEqual(expect.objectContaining({ ...stored, summary: expect.anything() }));
    expect(remembered.summary.slots).toEqual(expect.arrayContaining([...stored.summary.slots]));
    expect(remembered.summary.slots).toHaveLength(stored.summary.slots.length);
  });

  it('acknowledges a written group offered again (its acks were lost) without a second effect', async () => {
    now = T0;
    const tenantId = randomUUID();
    const group = items(products(tenantId, 0, 30));
    expect((await ingestProductEvents(deps, tenantId, group)).applied).toBe(30);
    expect(await ingestProductEvents(deps, tenantId, group)).toEqual(
      expect.objectContaining({ applied: 0, duplicates: 30 }),
    );
    expect(await otherReplica.load(tenantId)).toEqual(
      expect.objectContaining({ version: 1, appliedEvents: 30 }),
    );
  });

  it('keeps a completion another replica stored since its last write', async () => {
    now = T0;
    const tenantId = randomUUID();
    await ingestProductEvents(deps, tenantId, items(products(tenantId, 0, 10)));
    const completion = {
      id: randomUUID(),
      key: 'kickoff_call_held',
      completedAt: T0.toISOString(),
      evidenceRef: null,
      actorId: 'user-1',
    };
    // No version pinned (an API call without expectedVersion): it moves the version.
    expect(await otherReplica.recordCompletionOnce(tenantId, completion, T0)).toBe('recorded');
    aggregateFinds = 0;
    expect((await ingestProductEvents(deps, tenantId, items(products(tenantId, 10, 10)))).applied).toBe(10);
    expect(aggregateFinds).toBe(1);
    const stored = await otherReplica.load(tenantId);
    expect(stored.manualCompletions).toEqual([completion]);
    expect(stored).toEqual(expect.objectContaining({ version: 3, appliedEvents: 20 }));
  });

  it('keeps the rung a drift-watch record of another replica moved a risk to since its last write', async () => {
    const tenantId = randomUUID();
    // An invitation nobody accepts: three days later the consumer's recompute opens a risk.
    const detectedAt = new Date(T0.getTime() + 3 * DAY);
    now = new Date(detectedAt.getTime() + HOUR);
    const invited = productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, T0, {
      partnerTenantId: PARTNER_1,
    });
    await ingestProductEvents(deps, tenantId, items([invited]));
    const opened = await otherReplica.load(tenantId);
    expect(opened.signals).toEqual([
      expect.objectContaining({ kind: 'INVITATION_UNACCEPTED', resolution: 'OPEN' }),
    ]);
    // The other replica's drift watch nudges the tenant: the ledger moves a rung up.
    const nudged = opened.signals.map((s) => ({ ...s, resolution: 'AUTO_NUDGED' as const }));
    const recorded = await otherDrift.record(
      tenantId,
      { version: opened.version, driftRevision: opened.driftRevision },
      {
        lastBand: opened.lastBand ?? 'HEALTHY',
        lastRung: 'ONBOARDED' as const,
        events: [],
        signals: nudged,
        scheduledCheck: opened.scheduledCheck,
        projection: SOME_PROJECTION,
      },
      now,
    );
    expect(recorded).toBe(true);
    // The consumer's next group, folded on its memory (which still has the risk OPEN), must not
    // take the ladder back down: its write loses, it reads the ledger and keeps the rung.
    expect((await ingestProductEvents(deps, tenantId, items(products(tenantId, 0, 3)))).applied).toBe(3);
    const after = await otherReplica.load(tenantId);
    expect(after.appliedEvents).toBe(4);
    expect(after.signals).toEqual([
      expect.objectContaining({ kind: 'INVITATION_UNACCEPTED', resolution: 'AUTO_NUDGED' }),
    ]);
  });
});
