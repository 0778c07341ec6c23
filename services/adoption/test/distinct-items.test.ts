import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProductEvent } from '@tap/contracts';
import {
  ingestProductEvents,
  type IngestDeps,
  type IngestItem,
} from '../src/operations/ingest-product-events.js';
import { countDistinctItems } from '../src/operations/count-distinct-items.js';
import { toFact } from '../src/domain/index.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { ITEM_MARKERS_COLLECTION, itemMarkersRepository } from '../src/store/item-markers-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-06-01T00:00:00.000Z');

function event(tenantId: string, n: number, type: string, productId: string): ProductEvent {
  return {
    id: `${tenantId}-${type}-${n}`,
    type,
    tenantId,
    occurredAt: new Date(NOW.getTime() - 60_000 + n).toISOString(),
    subject: { productId },
    data: {},
  } as ProductEvent;
}

describe('distinct items on the real Mongo-wire server', () => {
  let bed: TestBed;
  let deps: IngestDeps;
  let seq = 0;
  const sequenced = (events: readonly ProductEvent[]): IngestItem[] =>
    events.map((e) => ({ event: e, seq: (seq += 1) }));
  const items = async (tenantId: string) =>
    (await aggregatesRepository(bed.db, createTenantWriteLock()).load(tenantId)).summary.items ?? {};

  beforeAll(async () => {
    bed = await openTestBed('items');
    bed.clock.set(NOW);
    deps = storeIngestDeps(bed.db, bed.clock);
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('counts each product once across groups and keeps none in the tenant’s document', async () => {
    const created = Array.from({ length: 1_200 }, (_, i) =>
      event('t-a', i, 'product.created', `p-${i % 1_000}`),
    );
    for (let i = 0; i < created.length; i += 300)
      await ingestProductEvents(deps, 't-a', sequenced(created.slice(i, i + 300)));
    const viewed = Array.from({ length: 50 }, (_, i) =>
      event('t-a', 2_000 + i, 'product.viewed', `p-${i % 20}`),
    );
    await ingestProductEvents(deps, 't-a', sequenced(viewed));
    expect(await items('t-a')).toEqual({ product: 1_000, viewed: 20, 'viewed+product': 20 });
    const aggregate = await aggregatesRepository(bed.db, createTenantWriteLock()).load('t-a');
    // The rules keep a few (the first ten, a day's engagement cap), never one per product.
    expect(aggregate.facts.filter((f) => f.type === 'product.created').length).toBeLessThan(50);
    expect(await itemMarkersRepository(bed.db).countFor('t-a', 'product')).toBe(1_000);
  });

  it('counts a group once when it is applied again after its markers went in but its write did not', async () => {
    const group = sequenced(
      Array.from({ length: 100 }, (_, i) =>
        event('t-b', i, i % 2 ? 'product.viewed' : 'product.created', `p-${i >> 1}`),
      ),
    );
    // The first attempt: markers in, then the process dies before the tenant's write.
    await countDistinctItems(
      itemMarkersRepository(bed.db),
      't-b',
      group.map((g) => ({ fact: toFact(g.event)!, seq: g.seq })),
    );
    await ingestProductEvents(deps, 't-b', group);
    expect(await items('t-b')).toEqual({ product: 50, viewed: 50, 'viewed+product': 50 });
    // A redelivery after the write applies nothing.
    await ingestProductEvents(deps, 't-b', group);
    expect(await items('t-b')).toEqual({ product: 50, viewed: 50, 'viewed+product': 50 });
  });

  it('keeps tenants apart: the same product ids count for each tenant', async () => {
    for (const tenant of ['t-c', 't-d'])
      await ingestProductEvents(
        deps,
        tenant,
        sequenced([
          event(tenant, 1, 'product.created', 'shared'),
          event(tenant, 2, 'product.created', 'other'),
        ]),
      );
    expect(await items('t-c')).toEqual({ product: 2 });
    expect(await items('t-d')).toEqual({ product: 2 });
    expect(
      await bed.db.collection(ITEM_MARKERS_COLLECTION).countDocuments({ _id: 't-c|product|shared' as never }),
    ).toBe(1);
  });
});
