import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureEventStream, type BatchConsumer } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { as } from '@tap/service-testkit';
import { gateOpen } from '@tap/testkit';
import { consumerSettled, productEvent, publisherFor } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const TENANTS = 30;

let bed: TestBed;
const running: BatchConsumer[] = [];

beforeAll(async () => {
  bed = await openTestBed('usage stop');
  const { streamName, subjectPrefix, duplicateWindowMs } = bed.events;
  await ensureEventStream(bed.jsm, { streamName, subjectPrefix, duplicateWindowMs });
});
afterAll(async () => {
  await Promise.all(running.map((c) => c.stop()));
  await bed.close();
});

async function products(tenantId: string): Promise<number | undefined> {
  const report = await unaryCall(bed.client, 'GetUsage', {}, await as(bed, tenantId));
  return report.limits.find((l) => l.key === 'MAX_ACTIVE_PRODUCTS')?.current;
}

/**
 * A rolling restart saw entitlements exit 1: its stop waited for a batch of hundreds of one-event
 * tenants to be written on a loaded FerretDB, past the 4.5 s shutdown grace. A stopping consumer
 * now finishes only the tenants it has begun and hands the rest back to the next owner.
 */
describe('stopping the usage counter with a batch in hand', () => {
  it('writes none of the tenants it has not begun, and a successor counts each event once', async () => {
    const tenants = Array.from({ length: TENANTS }, () => randomUUID());
    const publisher = publisherFor(bed);
    for (const tenantId of tenants)
      await publisher.publish(productEvent(tenantId, 'product.created', { productId: 'p-1' }));
    const handed = gateOpen();
    const release = gateOpen();
    const first = await bed.app.startConsumer(bed.nc, {
      retryBackoff: { initialMs: 50, maxMs: 200 },
      batchSize: 100,
      ackWaitMs: 2_000,
      // The batch is in hand (pulled, handed to the handler) when the stop comes.
      decorate: (handler) => async (groups) => {
        handed.open();
        await release.promise;
        return handler(groups);
      },
    });
    running.push(first);
    await handed.promise;
    const stopped = first.stop();
    release.open();
    await stopped;

    const counted = await Promise.all(tenants.map(products));
    expect(counted.filter((c) => c === 1)).toHaveLength(0);

    running.push(
      await bed.app.startConsumer(bed.nc, { retryBackoff: { initialMs: 50, maxMs: 200 }, ackWaitMs: 2_000 }),
    );
    await consumerSettled(bed);
    expect(await Promise.all(tenants.map(products))).toEqual(tenants.map(() => 1));
  }, 120_000);
});
