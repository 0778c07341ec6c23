import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import { planReservation, getTier, type Reservation } from '../src/domain/index.js';
import { tierAssignmentsRepository } from '../src/store/tier-assignments-repository.js';
import { tracedProductsRepository } from '../src/store/traced-products-repository.js';
import { usageRepository } from '../src/store/usage-repository.js';
import { migrateUsageDocuments } from '../src/store/migrate-usage-documents.js';
import { usageBatchStore } from '../src/store/usage-batch-store.js';
import type { UsageDocument } from '../src/store/usage-document.js';

let mongo: MongoClient;
let db: Db;
beforeAll(async () => {
  mongo = new MongoClient(infraUrls().mongoUrl);
  db = mongo.db(testNamespace('entitlements store'));
});
afterAll(async () => {
  await db.dropDatabase();
  await mongo.close();
});

const NOW = new Date('2026-11-10T12:00:00.000Z');

function attempt(units: number, idempotencyKey: string) {
  const plan = planReservation(
    getTier('SUPPLIER_FREE'),
    { action: 'BULK_UPLOAD', units, idempotencyKey },
    NOW,
  );
  if (plan.kind !== 'ATTEMPT') throw new Error('expected an attempt');
  return plan;
}

describe('the usage repository on the real Mongo-wire server', () => {
  it('reserves on a tenant never seen (no document, no field) and refuses once the guard fails', async () => {
    const usage = usageRepository(db);
    const tenantId = randomUUID();
    expect(await usage.reserve(tenantId, attempt(600, 'a'), NOW)).toBe(true);
    expect(await usage.reserve(tenantId, attempt(400, 'b'), NOW)).toBe(true);
    expect(await usage.reserve(tenantId, attempt(1, 'c'), NOW)).toBe(false);
    expect(await usage.reserve(tenantId, attempt(600, 'a'), NOW)).toBe(false);
    const view = await usage.read(tenantId, { reservationKey: 'a' });
    expect(view.doc?.months?.['2026-11']?.BULK_UPLOAD_ROWS_MONTH).toEqual({ used: 1000, held: 1000 });
    expect(view.reservation).toMatchObject({ idempotencyKey: 'a', state: 'HELD', units: 600 });
  });

  it('applies a batch write only while lastSeq is what was read, and bumps the version', async () => {
    const store = usageBatchStore(db);
    const tenantId = randomUUID();
    const first = await store.read(tenantId, []);
    expect([first.lastSeq, first.version]).toEqual([0, 0]);
    const write = {
      increments: [{ counter: 'MAX_USERS' as const, delta: 2 }],
      settled: [],
      lastSeq: 7,
      recentEventIds: ['e1'],
    };
    expect(await store.apply(tenantId, first, write, NOW)).toBe(true);
    // A second writer that read the same state loses: its events may be applied already.
    expect(await store.apply(tenantId, first, { ...write, lastSeq: 9 }, NOW)).toBe(false);
    const after = await store.read(tenantId, []);
    expect([after.lastSeq, after.version, after.counter('MAX_USERS', undefined).used]).toEqual([7, 1, 2]);
    expect(after.recentEventIds).toEqual(['e1']);
  });

  it('bumps the version on every reserve and settlement, so caches see those writes too', async () => {
    const usage = usageRepository(db);
    const store = usageBatchStore(db);
    const tenantId = randomUUID();
    await usage.reserve(tenantId, attempt(5, 'v'), NOW);
    expect((await store.read(tenantId, [])).version).toBe(1);
  });

  it('writes a settlement only while the reservation is still HELD', async () => {
    const usage = usageRepository(db);
    const tenantId = randomUUID();
    await usage.reserve(tenantId, attempt(10, 'k'), NOW);
    const view = await usage.read(tenantId, { reservationKey: 'k' });
    const released: Reservation = { ...view.reservation!, state: 'RELEASED', settledAt: NOW.toISOString() };
    const transition = {
      changed: true,
      reservation: released,
      deltas: [{ counter: 'BULK_UPLOAD_ROWS_MONTH' as const, period: '2026-11', delta: -10, heldDelta: -10 }],
    };
    expect(await usage.settleReservation(tenantId, view, transition, NOW)).toBe(true);
    expect(await usage.settleReservation(tenantId, view, transition, NOW)).toBe(false);
    expect((await usage.read(tenantId)).doc?.months?.['2026-11']?.BULK_UPLOAD_ROWS_MONTH).toEqual({
      used: 0,
      held: 0,
    });
  });

  it('prunes reservations and months, and lists tenants in order', async () => {
    const usage = usageRepository(db);
    const tenantId = randomUUID();
    await usage.reserve(tenantId, attempt(5, 'old'), NOW);
    await usage.prune(tenantId, { reservationKeys: ['old'], eventIds: [], periods: ['2026-11'] }, NOW);
    const doc = await usage.readForCleanup(tenantId);
    expect([doc?.reservations, doc?.months]).toEqual([{}, {}]);
    const ids = await usage.listTenantIds(null, 1_000);
    expect(ids).toEqual([...ids].sort());
    expect(await usage.listTenantIds(ids[0] ?? null, 1)).toEqual(ids.slice(1, 2));
  });
});

describe('the start-up migration of usage documents', () => {
  it('replaces the applied-id map by its newest ids and fences the document, twice safely', async () => {
    const tenantId = randomUUID();
    const ids = Array.from({ length: 5 }, () => randomUUID());
    // The shape written before batching: the map inside the tenant's document, no lastSeq, no version.
    await db.collection<UsageDocument>('usage').insertOne({
      _id: tenantId,
      counters: { MAX_USERS: { used: 2 } },
      months: {},
      reservations: {},
      appliedEvents: Object.fromEntries(ids.map((id, i) => [id, `2026-11-0${i + 1}T00:00:00.000Z`])),
    });
    const report = await migrateUsageDocuments(db, 3);
    expect(report.movedDocuments).toBeGreaterThanOrEqual(1);
    const doc = await db.collection<UsageDocument>('usage').findOne({ _id: tenantId });
    expect(doc?.appliedEvents).toBeUndefined();
    expect([doc?.lastSeq, doc?.version, doc?.counters?.MAX_USERS?.used]).toEqual([0, 0, 2]);
    expect(doc?.recentEventIds).toEqual(ids.slice(2));
    const again = await migrateUsageDocuments(db, 3);
    expect([again.movedDocuments, again.fencedDocuments]).toEqual([0, 0]);
  });
});

describe('the traced-product markers', () => {
  it('lets only the first trace event count a product, and only one archive event free it', async () => {
    const traced = tracedProductsRepository(db);
    const tenantId = randomUUID();
    const [first, second, archive, other] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(await traced.claimAdd(tenantId, 'p1', first, NOW)).toBe(true);
    expect(await traced.claimAdd(tenantId, 'p1', first, NOW)).toBe(true);
    expect(await traced.claimAdd(tenantId, 'p1', second, NOW)).toBe(false);
    expect(await traced.claimRemove(tenantId, 'p1', archive)).toBe(true);
    expect(await traced.claimRemove(tenantId, 'p1', other)).toBe(false);
    expect(await traced.claimRemove(tenantId, 'p1', archive)).toBe(true);
    await traced.finishRemove(tenantId, 'p1', archive);
    expect(await traced.claimRemove(tenantId, 'p1', archive)).toBe(false);
    expect(await traced.claimAdd(tenantId, 'p1', second, NOW)).toBe(true);
  });
});

describe('the tier assignments', () => {
  it('creates the default tier once under concurrent first reads, and a set tier wins', async () => {
    const tiers = tierAssignmentsRepository(db);
    const tenantId = randomUUID();
    const reads = await Promise.all(Array.from({ length: 8 }, () => tiers.findOrCreate(tenantId, NOW)));
    expect(new Set(reads.map((r) => r.tierCode))).toEqual(new Set(['SUPPLIER_FREE']));
    await Promise.all([
      tiers.setTier(tenantId, 'CORE', NOW),
      tiers.findOrCreate(tenantId, NOW),
      tiers.findOrCreate(tenantId, NOW),
    ]);
    expect((await tiers.findOrCreate(tenantId, NOW)).tierCode).toBe('CORE');
  });

  it('sets the tier of a tenant never seen, even when two first writes race', async () => {
    const tiers = tierAssignmentsRepository(db);
    const tenantId = randomUUID();
    await Promise.all([
      tiers.setTier(tenantId, 'ENTERPRISE', NOW),
      tiers.setTier(tenantId, 'ENTERPRISE', NOW),
    ]);
    expect((await tiers.findOrCreate(tenantId, NOW)).tierCode).toBe('ENTERPRISE');
  });
});

describe('the cost of a tenant lookup on the real Mongo-wire server', () => {
  // FerretDB v1.24 on SQLite, as released, answers every one of these with a scan of the whole
  // collection (docs/foundation.md, "FerretDB's limits"); our build is patched
  // (scripts/ferretdb/sqlite-id-index.patch). The plan, not a timing, is what is checked.
  const usesIdIndex = async (filter: Record<string, unknown>): Promise<string> => {
    const explained = await db.command({ explain: { find: 'usage', filter } });
    const plan = JSON.stringify(explained['queryPlanner'] ?? {});
    if ((explained['serverInfo'] as { ferretdbVersion?: string } | undefined)?.ferretdbVersion)
      return explained['filterPushdown'] === true && /USING INDEX \S+__id_/.test(plan) ? 'index' : plan;
    return /IDHACK|EXPRESS_IXSCAN|"indexName":"_id_"/.test(plan) ? 'index' : plan;
  };

  it("finds a tenant's usage document through the _id index, also under the batch write's conditions", async () => {
    const tenantId = randomUUID();
    const store = usageBatchStore(db);
    const write = { increments: [], settled: [], lastSeq: 1, recentEventIds: [] };
    expect(await store.apply(tenantId, await store.read(tenantId, []), write, NOW)).toBe(true);
    expect(await usesIdIndex({ _id: tenantId })).toBe('index');
    const fenced = { _id: tenantId, lastSeq: 1, version: 1, 'counters.MAX_USERS.used': { $gte: 1 } };
    expect(await usesIdIndex(fenced)).toBe('index');
  });
});
