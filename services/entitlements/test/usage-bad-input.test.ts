import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventSubject } from '@tap/contracts';
import type { EventPublisher } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { as } from '@tap/service-testkit';
import { waitFor } from '@tap/testkit';
import { consumerSettled, productEvent } from './support/events.js';
import { openConsumingBed } from './support/consuming-bed.js';
import type { TestBed } from './support/test-bed.js';

let bed: TestBed;
let publisher: EventPublisher;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ bed, publisher, close } = await openConsumingBed('usage bad input'));
});
afterAll(() => close());

/**
 * Issue #13, "Bad input and faults", for entitlements' batched consumer: what can never be counted
 * is dead-lettered (entitlements' dead letters are its `rejected_events` records) with its reason,
 * and the tenant's events around it are counted.
 */
describe('the batched usage counter and events it can never count', () => {
  it('records a malformed, an unknown-kind and an oversized event with their reasons, and counts the tenant’s others', async () => {
    const tenantId = randomUUID();
    const prefix = bed.events.subjectPrefix;
    const products = eventSubject(tenantId, 'product.created', prefix);
    await publisher.publish(productEvent(tenantId, 'product.created', { productId: 'before' }));
    await bed.js.publish(products, '{"id":', { msgID: randomUUID() });
    const unknown = {
      ...productEvent(tenantId, 'product.created', { productId: 'x' }),
      type: 'product.teleported',
    };
    await bed.js.publish(`${prefix}.${tenantId}.product.teleported`, JSON.stringify(unknown), {
      msgID: randomUUID(),
    });
    // Over the consumer's 64 KiB bound (DEFAULT_MAX_EVENT_BYTES).
    const huge = productEvent(
      tenantId,
      'product.created',
      { productId: 'big' },
      { blob: 'x'.repeat(100_000) },
    );
    await bed.js.publish(products, JSON.stringify(huge), { msgID: randomUUID() });
    await publisher.publish(productEvent(tenantId, 'product.created', { productId: 'after' }));
    await consumerSettled(bed);

    const report = await unaryCall(bed.client, 'GetUsage', {}, await as(bed, tenantId));
    expect(report.limits.find((l) => l.key === 'MAX_ACTIVE_PRODUCTS')?.current).toBe(2);
    const mine = async () =>
      (await bed.app.rejectedEvents.list(1_000)).filter((r) => r.subject.includes(tenantId));
    // Recorded beside the acknowledgement, not before it.
    await waitFor('the three records', async () => (await mine()).length === 3);
    const records = await mine();
    expect(records.map((r) => r.reason).sort()).toEqual(['INVALID_EVENT', 'MALFORMED_JSON', 'OVERSIZED']);
    for (const record of records) expect(record.detail.length).toBeGreaterThan(0);
  });
});
