import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import {
  EMPTY_SUMMARY,
  foldFacts,
  summaryFacts,
  type EventFact,
  type ManualCompletion,
  type SuccessPlan,
} from '../src/domain/index.js';
import { aggregatesRepository, type AggregatesRepository } from '../src/store/aggregates-repository.js';
import { driftRepository, type DriftRepository } from '../src/store/drift-repository.js';
import { ensureAdoptionIndexes } from '../src/store/indexes.js';
import { outboxRepository, type OutboxRepository } from '../src/store/outbox-repository.js';
import { plansRepository, type PlansRepository } from '../src/store/plans-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { someDerived } from './support/projection.js';

const NOW = new Date('2025-04-01T00:00:00.000Z');
const derived = someDerived();

function fact(type = 'product.created'): EventFact {
  return {
    id: randomUUID(),
    type,
    occurredAt: NOW.toISOString(),
    subject: { productId: randomUUID() },
    data: {},
  };
}

function completion(): ManualCompletion {
  return {
    id: randomUUID(),
    key: 'kickoff_call_held',
    completedAt: NOW.toISOString(),
    evidenceRef: null,
    actorId: null,
  };
}

function plan(title: string): SuccessPlan {
  const at = NOW.toISOString();
  return {
    id: randomUUID(),
    title,
    targetDate: '2025-09-01T00:00:00.000Z',
    status: 'ACTIVE',
    renewedFromId: null,
    objectives: [],
    createdAt: at,
    updatedAt: at,
  };
}

describe('the adoption store on the real Mongo-wire server', () => {
  let mongo: MongoClient;
  let db: Db;
  let aggregates: AggregatesRepository;
  let plans: PlansRepository;
  let drift: DriftRepository;
  let outbox: OutboxRepository;

  beforeAll(async () => {
    mongo = new MongoClient(infraUrls().mongoUrl);
    db = mongo.db(testNamespace('adoption_store'));
    await ensureAdoptionIndexes(db, 86_400_000);
    const lock = createTenantWriteLock();
    aggregates = aggregatesRepository(db, lock);
    plans = plansRepository(db);
    drift = driftRepository(db, lock);
    outbox = outboxRepository(db, lock);
  });
  // One fact folded into the summary the caller read (the ingest use case does this for a group).
  const appendFact = async (tenantId: string, one: EventFact, expectedVersion: number) => {
    const read = await aggregates.load(tenantId);
    const summary = foldFacts(read.summary ?? EMPTY_SUMMARY, [one], NOW);
    const change = {
      summary,
      recentEventIds: [...read.recentEventIds, one.id],
      lastSeq: 0,
      keptFacts: summaryFacts(summary),
      read,
      completions: [],
    };
    return aggregates.applyFacts(tenantId, change, expectedVersion, derived, NOW);
  };
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  it('lets exactly one of ten writes at the same version through', async () => {
    const tenantId = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => appendFact(tenantId, fact(), 0)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const stored = await aggregates.load(tenantId);
    expect(stored.version).toBe(1);
    expect(stored.facts).toHaveLength(1);
  });

  it('refuses a write at a stale version', async () => {
    const tenantId = randomUUID();
    const first = fact();
    expect(await appendFact(tenantId, first, 0)).toBe(true);
    expect(await appendFact(tenantId, fact(), 0)).toBe(false);
    expect(await appendFact(tenantId, fact(), 1)).toBe(true);
    expect((await aggregates.load(tenantId)).version).toBe(2);
  });

  it('stores one first plan of ten racing creates, and one renewal of five racing renewals', async () => {
    const tenantId = randomUUID();
    const creates = await Promise.all(
      Array.from({ length: 10 }, (_, i) => plans.create(tenantId, plan(`p${i}`))),
    );
    expect(creates.filter((o) => o === 'created')).toHaveLength(1);
    const [first] = await plans.chain(tenantId);
    const renewals = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        plans.renew(
          tenantId,
          0,
          { ...first!, status: 'RENEWED' },
          { ...plan(`r${i}`), renewedFromId: first!.id },
        ),
      ),
    );
    expect(renewals.filter((o) => o === 'renewed')).toHaveLength(1);
    const chain = await plans.chain(tenantId);
    expect(chain.map((p) => p.status)).toEqual(['RENEWED', 'ACTIVE']);
    expect(chain[1]?.renewedFromId).toBe(first?.id);
  });

  it('gives a due tenant to exactly one of several claimers', async () => {
    const tenantId = randomUUID();
    await drift.schedule(tenantId, new Date(NOW.getTime() - 1_000));
    const [due] = (await drift.due(NOW, 1_000)).filter((d) => d.tenantId === tenantId);
    const claims = await Promise.all(Array.from({ length: 8 }, () => drift.claim(due!, NOW, 60_000)));
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    // A lease later, a replica that died holding it no longer blocks the tenant.
    expect(await drift.claim(due!, new Date(NOW.getTime() + 61_000), 60_000)).not.toBeNull();
  });

  it('records a drift-watch ledger only over the facts and ledger it read', async () => {
    const tenantId = randomUUID();
    await appendFact(tenantId, fact(), 0);
    const read = await aggregates.load(tenantId);
    await appendFact(tenantId, fact(), 1);
    expect(await drift.record(tenantId, read, someDerived('HEALTHY'), NOW)).toBe(false);
    const fresh = await aggregates.load(tenantId);
    expect(await drift.record(tenantId, fresh, someDerived('HEALTHY'), NOW)).toBe(true);
    expect(await drift.record(tenantId, fresh, someDerived('DRIFTING'), NOW)).toBe(false);
    expect((await aggregates.load(tenantId)).lastBand).toBe('HEALTHY');
  });

  it('puts a completion in the outbox with the write that stores it, and only then', async () => {
    const tenantId = randomUUID();
    const done = completion();
    expect(await aggregates.recordCompletion(tenantId, done, 0, derived, NOW)).toBe(true);
    expect((await aggregates.load(tenantId)).unpublished).toEqual([done.id]);
    expect(await outbox.entry(tenantId, done.id)).toEqual({ state: 'unpublished', completion: done });
    // A completion that lost its version race is neither stored nor waiting to be published.
    const lost = completion();
    expect(await aggregates.recordCompletion(tenantId, lost, 0, derived, NOW)).toBe(false);
    expect(await outbox.entry(tenantId, lost.id)).toEqual({ state: 'unwritten' });
    expect(await appendFact(tenantId, fact(), 1)).toBe(true);
    expect((await aggregates.load(tenantId)).unpublished).toEqual([done.id]);
  });

  it('takes a published completion out of the outbox while a fact is written at the same time', async () => {
    const tenantId = randomUUID();
    const [first, second] = [completion(), completion()];
    await aggregates.recordCompletion(tenantId, first, 0, derived, NOW);
    await aggregates.recordCompletion(tenantId, second, 1, derived, NOW);
    await outbox.remind(tenantId, first.id, NOW, NOW);
    await Promise.all([outbox.markPublished(tenantId, first.id), appendFact(tenantId, fact(), 2)]);
    const stored = await aggregates.load(tenantId);
    expect(stored.unpublished).toEqual([second.id]);
    expect(stored.facts).toHaveLength(1);
    expect(stored.version).toBe(3);
    expect(await outbox.entry(tenantId, first.id)).toEqual({ state: 'published' });
    expect((await outbox.due(NOW, 1_000)).filter((d) => d.tenantId === tenantId)).toEqual([]);
  });

  it('gives due outbox reminders oldest first, each to exactly one of several claimers', async () => {
    const tenantId = randomUUID();
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    const [older, newer] = [randomUUID(), randomUUID()];
    await outbox.remind(tenantId, newer, at(-1_000), NOW);
    await outbox.remind(tenantId, older, at(-2_000), NOW);
    await outbox.remind(tenantId, randomUUID(), at(1_000), NOW);
    const due = (await outbox.due(NOW, 1_000)).filter((d) => d.tenantId === tenantId);
    expect(due.map((d) => d.completionId)).toEqual([older, newer]);
    const claims = await Promise.all(Array.from({ length: 8 }, () => outbox.claim(due[0]!, NOW, 60_000)));
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    // A lease later, a replica that died holding it no longer blocks the completion.
    expect(await outbox.claim(due[0]!, at(61_000), 60_000)).not.toBeNull();
  });
});
