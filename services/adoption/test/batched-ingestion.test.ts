import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { startBatchConsumer, type BatchHandler } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { productBatchHandler } from '../src/events/batch-handler.js';
import { productEvent, publishCopy } from './support/events.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { settleThenReplay } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-03-01T00:00:00.000Z');
const silent = createLogger({ service: 'adoption-test', level: 'silent' });

describe('the batched milestone detector', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('batched');
    // The bed made the event stream: these tests publish before a consumer starts.
    bed.clock.set(NOW);
  });
  afterAll(async () => {
    await bed?.close();
  });

  // A long deadline: these tests count applied events; on the shared 2-core machine a GetState of a
  // 2,000-product tenant once passed the 2 s default while the consumer was busy.
  const stateOf = async (tenantId: string) =>
    unaryCall(bed.client, 'GetState', {}, { ...(await bed.as(tenantId)), deadlineMs: 20_000 });

  it('applies thousands of a tenant’s events, each once, in few writes, through replays, copies and lost acks', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const events: ProductEvent[] = [
      productEvent(tenantId, 'company.profile_completed', {}, new Date(NOW.getTime() - 86_400_000)),
    ];
    for (let i = 0; i < 2_000; i += 1) {
      events.push(
        productEvent(
          tenantId,
          'product.created',
          { productId: `p-${i}` },
          new Date(NOW.getTime() - 3_600_000 + i),
        ),
      );
    }
    // Another replica's objects, and a handler that loses the acks of every third group after its
    // write succeeded (as a process dying between write and ack would): the group comes again.
    const handler = productBatchHandler({ ...storeIngestDeps(bed.db, bed.clock), logger: silent });
    let calls = 0;
    let lostAcks = 0;
    const losing: BatchHandler = async (groups) => {
      const outcomes = await handler(groups);
      calls += 1;
      if (calls % 3 !== 0) return outcomes;
      lostAcks += 1;
      return new Map(
        [...outcomes.keys()].map((id) => [
          id,
          { kind: 'retry', reason: 'ack lost after the write' } as const,
        ]),
      );
    };
    const durable = `${bed.events.consumerName}_batched`;
    const start = () =>
      startBatchConsumer(bed.js, bed.jsm, {
        streamName: bed.events.streamName,
        durableName: durable,
        subjectPrefix: bed.events.subjectPrefix,
        filterSubjects: [`${bed.events.subjectPrefix}.${tenantId}.>`],
        handleBatch: losing,
        batchSize: 200,
        retryBackoff: { initialMs: 20, maxMs: 50 },
        ackWaitMs: 5_000,
        onInvalid: () => undefined,
        onError: () => undefined,
      });
    let consumer = await start();
    for (const [i, event] of events.entries()) {
      await bed.publisher.publish(event);
      if (i % 10 === 0) await publishCopy(bed.js, bed.events.subjectPrefix, event);
      if (i === 1_000) {
        await consumer.stop();
        consumer = await start();
      }
    }
    await settleThenReplay(bed.jsm, bed.events.streamName, durable, consumer, start);

    expect(lostAcks).toBeGreaterThan(0);
    const state = await stateOf(tenantId);
    expect(state.appliedEventCount).toBe(events.length);
    // One write per group, not one per event.
    expect(state.version).toBeLessThan(events.length / 10);
    const products = state.milestones.find((m) => m.key === 'first_product_created');
    expect(products?.status).toBe('DONE');
  }, 240_000);

  it('hands back the groups it has not begun once the process is stopping, writing nothing for them', async () => {
    const deps = storeIngestDeps(bed.db, bed.clock);
    const handler = productBatchHandler({ ...deps, logger: silent, stopping: () => true });
    const tenantId = randomUUID();
    const item = { event: productEvent(tenantId, 'product.created', { productId: 'p-1' }, NOW), seq: 1 };
    const outcomes = await handler([
      { tenantId, items: [{ ...item, redelivered: false, deliveryCount: 1 }] },
    ]);
    expect(outcomes.get(tenantId)).toEqual({ kind: 'retry', reason: 'stopping' });
    expect((await deps.aggregates.load(tenantId)).version).toBe(0);
  });
});
