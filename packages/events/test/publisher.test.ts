import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { isDependencyUnavailable } from '@tap/errors';
import {
  createEventPublisher,
  currentConnectionPublisher,
  eventErrors,
  type EventPublisher,
} from '../src/index.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';

describe('the event publisher', () => {
  let bed: EventsTestBed;
  let publisher: EventPublisher;

  beforeAll(async () => {
    bed = await openTestBed('publisher');
    publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('stores the event as JSON on <prefix>.<tenantId>.<kind>, with the event id as the message id', async () => {
    const event = productCreated(randomUUID());
    const { seq, duplicate } = await publisher.publish(event);
    expect(duplicate).toBe(false);
    const stored = await bed.jsm.streams.getMessage(bed.streamName, { seq });
    expect(stored?.subject).toBe(`${bed.subjectPrefix}.${event.tenantId}.product.created`);
    expect(stored?.json()).toEqual(event);
    expect(stored?.header.get('Nats-Msg-Id')).toBe(event.id);
  });

  it('stores an event published twice with the same id once, and says the second was a duplicate', async () => {
    const event = productCreated(randomUUID());
    const first = await publisher.publish(event);
    const retry = await publisher.publish(event);
    expect(first.duplicate).toBe(false);
    expect(retry).toEqual({ seq: first.seq, duplicate: true });
    const { state } = await bed.jsm.streams.info(bed.streamName, {
      subjects_filter: `${bed.subjectPrefix}.${event.tenantId}.>`,
    });
    expect(state.subjects).toEqual({ [`${bed.subjectPrefix}.${event.tenantId}.product.created`]: 1 });
  });

  it('refuses an event that breaks the contract with EVENT_INVALID and stores nothing', async () => {
    const before = (await bed.jsm.streams.info(bed.streamName)).state.last_seq;
    const invalid = { ...productCreated(randomUUID()), subject: {} } as ProductEvent;
    const error: unknown = await publisher.publish(invalid).catch((e: unknown) => e);
    expect(eventErrors.is(error, 'EVENT_INVALID')).toBe(true);
    expect(eventErrors.is(error) && error.details?.['errors']).toEqual(
      expect.arrayContaining([expect.any(String)]),
    );
    expect((await bed.jsm.streams.info(bed.streamName)).state.last_seq).toBe(before);
  });

  it('fails with EVENT_PUBLISH_FAILED when no stream captures the subject', async () => {
    const elsewhere = createEventPublisher(bed.js, {
      subjectPrefix: `${bed.subjectPrefix}_nostream`,
      timeoutMs: 1_000,
    });
    const error: unknown = await elsewhere.publish(productCreated(randomUUID())).catch((e: unknown) => e);
    expect(eventErrors.is(error, 'EVENT_PUBLISH_FAILED')).toBe(true);
  });

  it('publishes over the connection current at each publish, and is unavailable while there is none', async () => {
    let current: typeof bed.nc | undefined = undefined;
    const publish = currentConnectionPublisher({
      connection: () => current,
      subjectPrefix: bed.subjectPrefix,
    });
    const error: unknown = await publish(productCreated(randomUUID())).catch((e: unknown) => e);
    expect(isDependencyUnavailable(error)).toBe(true);
    current = bed.nc;
    const event = productCreated(randomUUID());
    const { seq } = await publish(event);
    expect((await bed.jsm.streams.getMessage(bed.streamName, { seq }))?.json()).toEqual(event);
  });
});
