import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import { infraUrls, testNamespace } from '@tap/testkit';
import {
  createEventPublisher,
  createRedisLease,
  startBatchConsumer,
  type BatchConsumer,
  type EventPublisher,
  type TenantOutcome,
} from '../src/index.js';
import { Ledger, batchRecorder, batchStarter, crashingLease } from './support/batch.js';
import { settled, uniqueDurable } from './support/consumers.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';
import { waitFor } from './support/wait-for.js';

const TTL_MS = 1_000;
const ACK_WAIT_MS = 2_000;

describe('one owner of a batch consumer', () => {
  let bed: EventsTestBed;
  let publisher: EventPublisher;
  let consumers: ReturnType<typeof batchStarter>;
  let redis: Redis;
  let key: string;

  beforeAll(() => {
    redis = new Redis(infraUrls().redisUrl);
  });

  beforeEach(async () => {
    bed = await openTestBed('batch_owner');
    publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
    consumers = batchStarter(bed);
    key = `${testNamespace('batch_lease')}:lease`;
  });

  afterEach(async () => {
    await consumers.stopAll();
    await bed?.close();
    await redis.del(key);
  });

  afterAll(async () => {
    await redis?.quit();
  });

  async function publishFor(tenantId: string, count: number): Promise<number[]> {
    const seqs: number[] = [];
    for (let i = 0; i < count; i += 1) seqs.push((await publisher.publish(productCreated(tenantId))).seq);
    return seqs;
  }

  function lease() {
    return createRedisLease({ redis, key, ttlMs: TTL_MS });
  }

  it('lets only the lease holder pull when two replicas share the durable consumer', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const [ledgerA, ledgerB] = [new Ledger(), new Ledger()];
    const a = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      handleBatch: ledgerA.handler(),
    });
    const b = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      handleBatch: ledgerB.handler(),
    });
    await waitFor('one of them to own the consumer', () => a.owning() || b.owning());
    const seqs: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      seqs.push(...(await publishFor(tenantId, 10)));
      await sleep(150);
    }
    await waitFor('every event to be applied', () => ledgerA.total() + ledgerB.total() === 50);
    await waitFor('every message to be acked', () => settled(bed, durableName));

    const [owner, idle] = a.owning() ? [ledgerA, ledgerB] : [ledgerB, ledgerA];
    expect([a.owning(), b.owning()].filter(Boolean)).toHaveLength(1);
    expect(owner.of(tenantId)).toEqual(seqs);
    expect(idle.calls).toHaveLength(0);
  });

  it('hands over at once on a clean stop: the next owner applies the rest in order, each once', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const ledger = new Ledger();
    const seqs = await publishFor(tenantId, 20);
    const a = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      batchSize: 5,
      handleBatch: async (groups) => {
        await sleep(50);
        return ledger.handler()(groups);
      },
    });
    const b = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      handleBatch: ledger.handler(),
    });
    await waitFor('A to own it and apply something', () => a.owning() && ledger.total() > 0);
    await a.stop();
    seqs.push(...(await publishFor(tenantId, 10)));

    await waitFor('B to take over', () => b.owning());
    await waitFor('every event to be applied', () => ledger.total() === 30);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(ledger.of(tenantId)).toEqual(seqs);
  });

  it('takes over from an owner that can no longer renew its lease, which stops pulling', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const [ledgerA, ledgerB] = [new Ledger(), new Ledger()];
    // A's way to Redis can be cut: its renewals fail from then on, as in a network partition.
    const leaseA = lease();
    let cut = false;
    const a = await consumers.start(batchRecorder(), {
      durableName,
      handleBatch: ledgerA.handler(),
      lease: {
        ttlMs: leaseA.ttlMs,
        claim: () => (cut ? Promise.reject(new Error('redis unreachable')) : leaseA.claim()),
        release: () => (cut ? Promise.reject(new Error('redis unreachable')) : leaseA.release()),
      },
    });
    await waitFor('A to own it', () => a.owning());
    const b = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      handleBatch: ledgerB.handler(),
    });
    const early = await publishFor(tenantId, 10);
    await waitFor('A to apply the first events', () => ledgerA.total() === 10);

    cut = true;
    await waitFor('A to give up ownership', () => !a.owning());
    await waitFor('B to take over', () => b.owning(), { timeoutMs: 15_000 });
    const late = await publishFor(tenantId, 10);
    await waitFor('B to apply the later events', () => ledgerB.total() === 10);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(ledgerA.of(tenantId)).toEqual(early);
    expect(ledgerB.of(tenantId)).toEqual(late);
    expect(a.owning()).toBe(false);
  });

  it('loses nothing when the owner dies holding a batch it never wrote: the successor applies it first', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const ledger = new Ledger();
    const before = await publishFor(tenantId, 10);

    // A process of its own: its connection dies with it, its lease is never released.
    const nc = await connect({ servers: infraUrls().natsUrl });
    let pulled = 0;
    const dead: BatchConsumer = await startBatchConsumer(jetstream(nc), await jetstreamManager(nc), {
      streamName: bed.streamName,
      subjectPrefix: bed.subjectPrefix,
      durableName,
      ackWaitMs: ACK_WAIT_MS,
      lease: crashingLease(redis, key, TTL_MS),
      onInvalid: () => undefined,
      onError: () => undefined,
      handleBatch: async (groups) => {
        pulled += groups.reduce((sum, g) => sum + g.items.length, 0);
        await nc.close();
        return new Map<string, TenantOutcome>(
          groups.map((g) => [g.tenantId, { kind: 'retry', reason: 'crashed' }]),
        );
      },
    });
    await waitFor('the doomed owner to pull the batch', () => pulled === 10);
    await dead.stop();

    const successor = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      ackWaitMs: ACK_WAIT_MS,
      handleBatch: ledger.handler(),
    });
    const after = await publishFor(tenantId, 10);
    await waitFor('the successor to own it', () => successor.owning(), { timeoutMs: 15_000 });
    await waitFor('every event to be applied', () => ledger.total() === 20, { timeoutMs: 15_000 });
    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(ledger.of(tenantId)).toEqual([...before, ...after]);
  });

  it('doubles nothing when the owner dies after its write and before its acks', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const ledger = new Ledger();
    const before = await publishFor(tenantId, 10);
    const nc = await connect({ servers: infraUrls().natsUrl });
    const dead = await startBatchConsumer(jetstream(nc), await jetstreamManager(nc), {
      streamName: bed.streamName,
      subjectPrefix: bed.subjectPrefix,
      durableName,
      ackWaitMs: ACK_WAIT_MS,
      lease: crashingLease(redis, key, TTL_MS),
      onInvalid: () => undefined,
      onError: () => undefined,
      handleBatch: async (groups) => {
        const outcomes = await ledger.handler()(groups);
        await nc.close();
        return outcomes;
      },
    });
    await waitFor('the doomed owner to write', () => ledger.total() === 10);
    await dead.stop();

    const successor = await consumers.start(batchRecorder(), {
      durableName,
      lease: lease(),
      ackWaitMs: ACK_WAIT_MS,
      handleBatch: ledger.handler(),
    });
    const after = await publishFor(tenantId, 10);
    await waitFor('every event to be applied', () => ledger.total() === 20, { timeoutMs: 15_000 });
    await waitFor('every message to be acked', () => settled(bed, durableName), { timeoutMs: 15_000 });
    expect(successor.owning()).toBe(true);
    expect(ledger.of(tenantId)).toEqual([...before, ...after]);
    // The redelivered first ten reached the handler again and the store skipped them.
    const handedTwice = ledger.calls
      .flat()
      .flatMap((g) => g.items)
      .filter((item) => item.deliveryCount > 1);
    expect(handedTwice.map((item) => item.seq)).toEqual(before);
    expect(successor.stats().redelivered).toBe(10);
  });
});
