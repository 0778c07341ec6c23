import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { eventSubject } from '@tap/contracts';
import type { BatchConsumer, EventPublisher } from '@tap/events';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { as, remoteError } from '@tap/service-testkit';
import { consumerSettled, productEvent, publishCopy } from './support/events.js';
import { openConsumingBed } from './support/consuming-bed.js';
import type { TestBed } from './support/test-bed.js';
import { waitFor } from '@tap/testkit';

let bed: TestBed;
let consumer: BatchConsumer;
let publisher: EventPublisher;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ bed, consumer, publisher, close } = await openConsumingBed('usage events'));
});
afterAll(() => close());
afterEach(() => bed.clock.reset());

async function counts(tenantId: string): Promise<Record<string, number>> {
  const report = await unaryCall(bed.client, 'GetUsage', {}, await as(bed, tenantId));
  return Object.fromEntries(report.limits.map((l) => [l.key, l.current]));
}

describe('the usage-counter consumer', () => {
  it('counts gauges up and down from product and connection events, never below zero; user events move no seat', async () => {
    const tenantId = randomUUID();
    const events = [
      productEvent(tenantId, 'product.created', { productId: 'p1' }),
      productEvent(tenantId, 'product.created', { productId: 'p2' }),
      productEvent(tenantId, 'product.created', { productId: 'p3' }),
      productEvent(tenantId, 'product.archived', { productId: 'p1' }),
      productEvent(tenantId, 'connection.accepted', { connectionId: 'c1' }),
      productEvent(tenantId, 'connection.accepted', { connectionId: 'c2' }),
      productEvent(tenantId, 'connection.removed', { connectionId: 'c1' }),
      productEvent(tenantId, 'connection.removed', { connectionId: 'c2' }),
      productEvent(tenantId, 'connection.removed', { connectionId: 'c3' }),
      productEvent(tenantId, 'user.joined', { userId: 'u1' }),
      productEvent(tenantId, 'product.viewed', { productId: 'p2' }),
    ];
    for (const event of events) await publisher.publish(event);
    await consumerSettled(bed);
    expect(await counts(tenantId)).toMatchObject({
      MAX_ACTIVE_PRODUCTS: 2,
      MAX_CONNECTIONS: 0,
    });
    // MAX_USERS is the seat ledger's alone (docs/entitlements-model.md "Seats").
    expect((await counts(tenantId))['MAX_USERS']).toBe(0);
  });

  it('counts an event once when it arrives twice under different message ids', async () => {
    const tenantId = randomUUID();
    const created = productEvent(tenantId, 'product.created', { productId: 'dup' });
    await publisher.publish(created);
    expect((await publisher.publish(created)).duplicate).toBe(true);
    await publishCopy(bed, created);
    await publishCopy(bed, created);
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_ACTIVE_PRODUCTS']).toBe(1);
  });

  it('counts distinct traced products, and archiving frees the slot', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    for (const productId of ['t1', 't1', 't2'])
      await publisher.publish(productEvent(tenantId, 'trace.recorded', { productId }));
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_TRACED_PRODUCTS']).toBe(2);
    await publisher.publish(productEvent(tenantId, 'product.archived', { productId: 't1' }));
    await publisher.publish(productEvent(tenantId, 'product.archived', { productId: 't1' }));
    await consumerSettled(bed);
    expect(await counts(tenantId)).toMatchObject({ MAX_TRACED_PRODUCTS: 1, MAX_ACTIVE_PRODUCTS: 0 });
    await publisher.publish(productEvent(tenantId, 'trace.recorded', { productId: 't1' }));
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_TRACED_PRODUCTS']).toBe(2);
  });

  it('counts imported rows in the UTC month the import happened', async () => {
    const tenantId = randomUUID();
    bed.clock.set('2026-10-20T08:00:00.000Z');
    await publisher.publish(
      productEvent(
        tenantId,
        'import.completed',
        { importId: 'i1' },
        { rows: 250 },
        '2026-10-19T23:30:00.000Z',
      ),
    );
    await publisher.publish(
      productEvent(
        tenantId,
        'import.completed',
        { importId: 'i2' },
        { rows: 40 },
        '2026-09-30T23:59:59.000Z',
      ),
    );
    await consumerSettled(bed);
    expect((await counts(tenantId))['BULK_UPLOAD_ROWS_MONTH']).toBe(250);
    bed.clock.set('2026-09-15T00:00:00.000Z');
    expect((await counts(tenantId))['BULK_UPLOAD_ROWS_MONTH']).toBe(40);
  });

  it('settles a reservation named by the event with the rows the import really wrote', async () => {
    const tenantId = randomUUID();
    const auth = await as(bed, tenantId);
    await unaryCall(
      bed.client,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 500, idempotencyKey: 'import-77' },
      auth,
    );
    await publisher.publish(
      productEvent(
        tenantId,
        'import.completed',
        { importId: 'i77' },
        { rows: 480, reservationKey: 'import-77' },
      ),
    );
    await consumerSettled(bed);
    expect((await counts(tenantId))['BULK_UPLOAD_ROWS_MONTH']).toBe(480);
    const consume = await unaryCall(bed.client, 'Consume', { idempotencyKey: 'import-77' }, auth);
    expect(consume).toMatchObject({ changed: false, reservation: { state: 'CONSUMED', consumedUnits: 480 } });
    const release = await remoteError(
      unaryCall(bed.client, 'Release', { idempotencyKey: 'import-77' }, auth),
    );
    expect([release.grpcStatus, release.reason]).toEqual([
      GrpcStatus.FAILED_PRECONDITION,
      'RESERVATION_CONSUMED',
    ]);
  });

  it('records and acknowledges events it cannot count, and goes on with the next one', async () => {
    const tenantId = randomUUID();
    const invalid = productEvent(
      tenantId,
      'import.completed',
      { importId: 'bad' },
      { rows: 10, reservationKey: 'not a key!' },
    );
    await publisher.publish(invalid);
    await bed.js.publish(
      eventSubject(tenantId, 'product.created', bed.events.subjectPrefix),
      'this is not JSON',
    );
    await publisher.publish(productEvent(tenantId, 'product.created', { productId: 'after' }));
    await consumerSettled(bed);
    expect((await counts(tenantId))['MAX_ACTIVE_PRODUCTS']).toBe(1);
    await waitFor(
      'both rejections to be recorded',
      async () =>
        (await bed.app.rejectedEvents.list(100)).filter(
          (r) => r.tenantId === tenantId || r.subject.includes(tenantId),
        ).length === 2,
    );
    const rejected = (await bed.app.rejectedEvents.list(100)).filter(
      (r) => r.tenantId === tenantId || r.subject.includes(tenantId),
    );
    expect(rejected.map((r) => r.reason).sort()).toEqual(['INVALID_EVENT', 'MALFORMED_JSON']);
    expect(rejected.find((r) => r.reason === 'INVALID_EVENT')).toMatchObject({
      id: invalid.id,
      eventType: 'import.completed',
    });
  });

  it('counts nothing again when the durable consumer is recreated and replays the stream', async () => {
    const tenantId = randomUUID();
    for (const productId of ['r1', 'r2'])
      await publisher.publish(productEvent(tenantId, 'product.created', { productId }));
    await publisher.publish(productEvent(tenantId, 'import.completed', { importId: 'r' }, { rows: 70 }));
    await consumerSettled(bed);
    const before = await counts(tenantId);
    const delivered = consumer.stats().delivered;
    const stored = (await bed.jsm.streams.info(bed.events.streamName)).state.messages;
    await bed.jsm.consumers.delete(bed.events.streamName, bed.events.consumerName);
    await waitFor('the replay of the whole stream', () => consumer.stats().delivered >= delivered + stored, {
      timeoutMs: 20_000,
    });
    await consumerSettled(bed);
    expect(await counts(tenantId)).toEqual(before);
    expect(before).toMatchObject({ MAX_ACTIVE_PRODUCTS: 2, BULK_UPLOAD_ROWS_MONTH: 70 });
  });

  it('keeps the tenant document bounded: no id map that grows with history', async () => {
    const tenantId = randomUUID();
    for (let i = 0; i < 5; i += 1)
      await publisher.publish(productEvent(tenantId, 'product.created', { productId: `p${i}` }));
    await consumerSettled(bed);
    const doc = await bed.db
      .collection<{ _id: string; appliedEvents?: object; recentEventIds?: string[] }>('usage')
      .findOne({ _id: tenantId });
    expect(doc?.appliedEvents).toBeUndefined();
    expect(doc?.recentEventIds).toHaveLength(5);
    expect((await counts(tenantId))['MAX_ACTIVE_PRODUCTS']).toBe(5);
  });
});
