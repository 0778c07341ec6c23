import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@tap/contracts';
import { waitFor } from '@tap/testkit';
import {
  createDomainEventPublisher,
  eventErrors,
  startDomainEventConsumer,
  type DomainEventPublisher,
} from '../src/index.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';

function clientCreated(tenantId: string): DomainEvent {
  return {
    id: randomUUID(),
    type: 'oauth_client.created',
    tenantId,
    occurredAt: new Date().toISOString(),
    subject: { clientId: randomUUID() },
    data: { name: 'ERP', scopes: ['products:read'] },
  };
}

describe('domain events on the bus', () => {
  let bed: EventsTestBed;
  let publisher: DomainEventPublisher;

  beforeAll(async () => {
    bed = await openTestBed('domain-events');
    publisher = createDomainEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('stores an event on <prefix>.<tenantId>.<type> with its id as the message id, a retry once', async () => {
    const event = clientCreated(randomUUID());
    const first = await publisher.publish(event);
    const retry = await publisher.publish(event);
    expect(retry).toEqual({ seq: first.seq, duplicate: true });
    const stored = await bed.jsm.streams.getMessage(bed.streamName, { seq: first.seq });
    expect(stored?.subject).toBe(`${bed.subjectPrefix}.${event.tenantId}.oauth_client.created`);
    expect(stored?.header.get('Nats-Msg-Id')).toBe(event.id);
  });

  it('refuses an event that breaks the contract and stores nothing', async () => {
    const error: unknown = await publisher
      .publish({ ...clientCreated(randomUUID()), subject: {} })
      .catch((e: unknown) => e);
    expect(eventErrors.is(error, 'EVENT_INVALID')).toBe(true);
  });

  it('hands each valid event to the handler, retries a failure, and never applies one on the wrong subject', async () => {
    const tenantId = randomUUID();
    const seen: string[] = [];
    const invalid: string[] = [];
    let failOnce = true;
    const consumer = await startDomainEventConsumer(bed.nc, {
      streamName: bed.streamName,
      durableName: `${bed.streamName}_domain`,
      subjectPrefix: bed.subjectPrefix,
      retryBackoff: { initialMs: 10, maxMs: 10 },
      handler: async (event) => {
        if (event.tenantId !== tenantId) return;
        if (failOnce) {
          failOnce = false;
          throw new Error('database away');
        }
        seen.push(event.id);
      },
      onInvalid: (report) => invalid.push(report.subject),
    });
    try {
      const good = clientCreated(tenantId);
      await publisher.publish(good);
      const stray = clientCreated(tenantId);
      await bed.js.publish(
        `${bed.subjectPrefix}.${randomUUID()}.oauth_client.created`,
        JSON.stringify(stray),
      );
      await waitFor(
        'the good event applied and the stray one refused',
        () => seen.length === 1 && invalid.length === 1,
        {
          timeoutMs: 20_000,
        },
      );
      expect(seen).toEqual([good.id]);
      expect(consumer.stats().failed).toBe(1);
    } finally {
      await consumer.stop();
    }
  });
});
