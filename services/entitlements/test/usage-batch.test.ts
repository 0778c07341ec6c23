import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { ensureEventStream, type BatchConsumer, type EventPublisher, type TenantOutcome } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { infraUrls } from '@tap/testkit';
import { as } from '@tap/service-testkit';
import { consumerSettled, productEvent, publishCopy, publisherFor } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';
import { waitFor } from '@tap/testkit';

// Short, so a successor does not wait long for what a stopped process left unacked.
const ACK_WAIT_MS = 2_000;

let bed: TestBed;
let publisher: EventPublisher;
const running: BatchConsumer[] = [];

beforeAll(async () => {
  bed = await openTestBed('usage batch');
  publisher = publisherFor(bed);
  // Published to before any consumer runs (a backlog): the stream must exist first.
  const { streamName, subjectPrefix, duplicateWindowMs } = bed.events;
  await ensureEventStream(bed.jsm, { streamName, subjectPrefix, duplicateWindowMs });
});
afterAll(async () => {
  await Promise.all(running.map((c) => c.stop()));
  await bed.close();
});

async function counts(tenantId: string): Promise<Record<string, number>> {
  const report = await unaryCall(bed.client, 'GetUsage', {}, await as(bed, tenantId));
  return Object.fromEntries(report.limits.map((l) => [l.key, l.current]));
}

async function start(options: Parameters<TestBed['app']['startConsumer']>[1] = {}): Promise<BatchConsumer> {
  const consumer = await bed.app.startConsumer(bed.nc, {
    retryBackoff: { initialMs: 50, maxMs: 200 },
    ackWaitMs: ACK_WAIT_MS,
    ...options,
  });
  running.push(consumer);
  return consumer;
}

async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((c) => c.stop()));
}

describe('the batched usage counter', () => {
  it('counts a backlog of one tenant in few writes, each event once, copies included', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    const created = Array.from({ length: 300 }, (_, i) =>
      productEvent(tenantId, 'product.created', { productId: `p${i}` }),
    );
    for (const event of created) await publisher.publish(event);
    // Copies under other message ids, in the same backlog and after it was counted: the stream
    // stores them, the counter must not count them.
    for (const event of created.slice(0, 10)) await publishCopy(bed, event);
    const consumer = await start();
    await consumerSettled(bed);
    for (const event of created.slice(10, 20)) await publishCopy(bed, event);
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_ACTIVE_PRODUCTS']).toBe(300);
    expect(consumer.stats().batches).toBeLessThan(50);
    const doc = await bed.db
      .collection<{ _id: string; lastSeq?: number }>('usage')
      .findOne({ _id: tenantId });
    expect(doc?.lastSeq).toBeGreaterThan(0);
    await stopAll();
  });

  it('doubles nothing when the process stops after its write and before its acks', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    // The doomed process: its own connection, closed right after the first write.
    const nc = await connect({ servers: infraUrls().natsUrl });
    let written = 0;
    const doomed = await bed.app.startConsumer(nc, {
      ackWaitMs: ACK_WAIT_MS,
      decorate: (handler) => async (groups) => {
        const outcomes = await handler(groups);
        written += groups.reduce((sum, g) => sum + g.items.length, 0);
        await nc.close();
        return outcomes;
      },
    });
    for (let i = 0; i < 40; i += 1)
      await publisher.publish(productEvent(tenantId, 'product.created', { productId: `c${i}` }));
    await waitFor('the doomed process to write', () => written > 0);
    await doomed.stop();
    expect((await counts(tenantId))['MAX_ACTIVE_PRODUCTS']).toBe(written);

    const successor = await start();
    for (let i = 0; i < 10; i += 1)
      await publisher.publish(productEvent(tenantId, 'connection.accepted', { connectionId: `u${i}` }));
    await consumerSettled(bed);
    expect(await counts(tenantId)).toMatchObject({ MAX_ACTIVE_PRODUCTS: 40, MAX_CONNECTIONS: 10 });
    expect(successor.stats().redelivered).toBeGreaterThan(0);
    await stopAll();
  });

  it("keeps a tenant's order when its write fails half way through a batch, and the others go on", async () => {
    const [failing, other] = [randomUUID(), randomUUID()];
    let failuresLeft = 2;
    // Order matters here: a removal before any acceptance clamps at 0, then +1 leaves 1.
    await publisher.publish(productEvent(failing, 'connection.removed', { connectionId: 'c1' }));
    await publisher.publish(productEvent(other, 'product.created', { productId: 'p1' }));
    await publisher.publish(productEvent(failing, 'connection.accepted', { connectionId: 'c2' }));
    await start({
      decorate: (handler) => async (groups) => {
        const outcomes = new Map<string, TenantOutcome>(
          await handler(groups.filter((g) => g.tenantId !== failing)),
        );
        const mine = groups.filter((g) => g.tenantId === failing);
        if (mine.length > 0 && failuresLeft > 0) {
          failuresLeft -= 1;
          outcomes.set(failing, { kind: 'retry', reason: 'store unavailable' });
        } else if (mine.length > 0) {
          for (const [tenant, outcome] of await handler(mine)) outcomes.set(tenant, outcome);
        }
        return outcomes;
      },
    });
    await consumerSettled(bed);
    expect(failuresLeft).toBe(0);
    expect((await counts(failing))['MAX_CONNECTIONS']).toBe(1);
    expect((await counts(other))['MAX_ACTIVE_PRODUCTS']).toBe(1);
    await stopAll();
  });

  it('folds on the stored counters when another writer changed the tenant since its last batch', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    await start();
    await publisher.publish(productEvent(tenantId, 'connection.accepted', { connectionId: 'c1' }));
    await consumerSettled(bed);
    // A reserve is written beside the counter (not through it): used 1 → 3, and the version moves.
    const auth = await as(bed, tenantId);
    const hold = { action: 'CREATE_CONNECTION', units: 2, idempotencyKey: 'two-more' };
    expect((await unaryCall(bed.client, 'Reserve', hold, auth)).granted).toBe(true);
    // Three removals clamp at 0 against the stored 3; against the counter's own last write (1)
    // they would clamp at 1 removal and leave 2.
    for (const id of ['c1', 'c2', 'c3'])
      await publisher.publish(productEvent(tenantId, 'connection.removed', { connectionId: id }));
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_CONNECTIONS']).toBe(0);
    await stopAll();
  });

  it('never refuses a reservation because events for the same tenant are being counted', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    for (let i = 0; i < 1_500; i += 1)
      await publisher.publish(productEvent(tenantId, 'product.created', { productId: `b${i}` }));
    const consumer = await start();
    const auth = await as(bed, tenantId);
    await waitFor('the backlog to be under way', () => consumer.stats().batches > 0);
    const grants = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        unaryCall(
          bed.client,
          'Reserve',
          { action: 'BULK_UPLOAD', units: 10, idempotencyKey: `r-${i}` },
          auth,
        ),
      ),
    );
    expect(grants.every((g) => g.granted)).toBe(true);
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_ACTIVE_PRODUCTS']).toBe(1_500);
    await stopAll();
  });
});
