import { randomUUID } from 'node:crypto';
import { eventSubject, type ProductEvent, type ProductEventKind } from '@tap/contracts';
import { createEventPublisher, type EventPublisher } from '@tap/events';
import type { TestBed } from './test-bed.js';
import { waitFor } from '@tap/testkit';

/** A valid product event with a fresh id. */
export function productEvent(
  tenantId: string,
  type: ProductEventKind,
  subject: Record<string, string>,
  data: Record<string, unknown> = {},
  occurredAt = new Date().toISOString(),
): ProductEvent {
  return { id: randomUUID(), type, tenantId, occurredAt, subject, data };
}

/** The contract's publisher on this bed's stream (the event id is the message id). */
export function publisherFor(bed: TestBed): EventPublisher {
  return createEventPublisher(bed.js, { subjectPrefix: bed.events.subjectPrefix });
}

/**
 * Stores `event` again under another message id, so the stream's duplicate window does not
 * catch it: the consumer sees the same event twice, as after a producer's retry with a new id
 * or a replay, and must count it once.
 */
export async function publishCopy(bed: TestBed, event: ProductEvent): Promise<void> {
  const subject = eventSubject(event.tenantId, event.type, bed.events.subjectPrefix);
  await bed.js.publish(subject, JSON.stringify(event), { msgID: `${event.id}-copy-${randomUUID()}` });
}

/** Waits until the durable consumer holds nothing: every stored message was handled and acked. */
export async function consumerSettled(bed: TestBed): Promise<void> {
  await waitFor('the usage consumer to ack everything', async () => {
    const info = await bed.jsm.consumers
      .info(bed.events.streamName, bed.events.consumerName)
      .catch(() => null);
    return info !== null && info.num_pending === 0 && info.num_ack_pending === 0;
  });
}
