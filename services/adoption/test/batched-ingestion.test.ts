import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { eventSubject, type ProductEvent } from '@tap/contracts';
import { deadLetterSubject, ensureEventStream, startBatchConsumer, type BatchHandler } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { DEAD_LETTER_STREAM } from '../src/app.js';
import { productBatchHandler } from '../src/events/batch-handler.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { driftRepository } from '../src/store/drift-repository.js';
import { itemMarkersRepository } from '../src/store/item-markers-repository.js';
import { rawEventsRepository } from '../src/store/raw-events-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { productEvent, publishCopy } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-03-01T00:00:00.000Z');
const silent = createLogger({ service: 'adoption-test', level: 'silent' });

describe('the batched milestone detector', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('batched');
    bed.clock.set(NOW);
    const { streamName, subjectPrefix, duplicateWindowMs } = bed.events;
    await ensureEventStream(bed.jsm, { streamName, subjectPrefix, duplicateWindowMs });
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
    const lock = createTenantWriteLock();
    const drift = driftRepository(bed.db, lock);
    const handler = productBatchHandler({
      aggregates: aggregatesRepository(bed.db, lock),
      rawEvents: rawEventsRepository(bed.db),
      markers: itemMarkersRepository(bed.db),
      logger: silent,
      now: bed.clock.now,
      rescanMs: 900_000,
      schedule: (id, at) => drift.schedule(id, at),
      onTransitions: () => undefined,
    });
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
    await consumerSettled(bed.jsm, bed.events.streamName, durable);
    await consumer.stop();
    // A full replay: the durable deleted and created again from the start of the stream.
    await bed.jsm.consumers.delete(bed.events.streamName, durable);
    consumer = await start();
    await consumerSettled(bed.jsm, bed.events.streamName, durable);
    await consumer.stop();

    expect(lostAcks).toBeGreaterThan(0);
    const state = await stateOf(tenantId);
    expect(state.appliedEventCount).toBe(events.length);
    // One write per group, not one per event.
    expect(state.version).toBeLessThan(events.length / 10);
    const products = state.milestones.find((m) => m.key === 'first_product_created');
    expect(products?.status).toBe('DONE');
  }, 240_000);

  it('dead-letters an unknown kind, a malformed and an oversized event with a reason, and applies the tenant’s others', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const consumer = await bed.startConsumer();
    const subject = eventSubject(tenantId, 'product.created', bed.events.subjectPrefix);
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, NOW));
    await bed.js.publish(subject, 'not json at all', { msgID: randomUUID() });
    const unknown = {
      ...productEvent(tenantId, 'product.created', { productId: 'p-x' }, NOW),
      type: 'product.teleported',
    };
    await bed.js.publish(
      `${bed.events.subjectPrefix}.${tenantId}.product.teleported`,
      JSON.stringify(unknown),
      {
        msgID: randomUUID(),
      },
    );
    const huge = productEvent(tenantId, 'product.created', { productId: 'p-big' }, NOW, {
      blob: 'x'.repeat(100_000),
    });
    await bed.js.publish(subject, JSON.stringify(huge), { msgID: randomUUID() });
    await bed.publisher.publish(productEvent(tenantId, 'product.created', { productId: 'p-1' }, NOW));
    // The bed's durable reads the whole stream (the test above left thousands): wait on its
    // progress, then on the answer.
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    expect((await stateOf(tenantId)).appliedEventCount).toBe(2);
    expect(consumer.stats().deadLettered).toBeGreaterThanOrEqual(3);
    const letters = await bed.jsm.streams.info(DEAD_LETTER_STREAM, {
      subjects_filter: deadLetterSubject(bed.events.consumerName),
    });
    expect(letters.state.messages).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('hands back the groups it has not begun once the process is stopping, writing nothing for them', async () => {
    const lock = createTenantWriteLock();
    const drift = driftRepository(bed.db, lock);
    const aggregates = aggregatesRepository(bed.db, lock);
    const handler = productBatchHandler({
      aggregates,
      rawEvents: rawEventsRepository(bed.db),
      markers: itemMarkersRepository(bed.db),
      logger: silent,
      now: bed.clock.now,
      rescanMs: 900_000,
      schedule: (id, at) => drift.schedule(id, at),
      onTransitions: () => undefined,
      stopping: () => true,
    });
    const tenantId = randomUUID();
    const item = { event: productEvent(tenantId, 'product.created', { productId: 'p-1' }, NOW), seq: 1 };
    const outcomes = await handler([
      { tenantId, items: [{ ...item, redelivered: false, deliveryCount: 1 }] },
    ]);
    expect(outcomes.get(tenantId)).toEqual({ kind: 'retry', reason: 'stopping' });
    expect((await aggregates.load(tenantId)).version).toBe(0);
  });
});
