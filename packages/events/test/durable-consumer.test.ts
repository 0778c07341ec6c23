import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DEAD_LETTER_HEADERS,
  PermanentEventError,
  createEventPublisher,
  deadLetterSubject,
  type EventPublisher,
} from '../src/index.js';
import { consumerStarter, deadLetters, recorder, settled, uniqueDurable } from './support/consumers.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';
import { waitFor } from './support/wait-for.js';

// Long enough for a wrong redelivery (retry delays here are 50-200 ms) to have shown up.
const QUIET_MS = 600;

describe('a durable event consumer', () => {
  let bed: EventsTestBed;
  let publisher: EventPublisher;
  let consumers: ReturnType<typeof consumerStarter>;

  beforeAll(async () => {
    bed = await openTestBed('durable_consumer');
    publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
    consumers = consumerStarter(bed);
  });

  afterEach(async () => {
    await consumers.stopAll();
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('hands a published event to the handler once, then acks it', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const seen = recorder();
    const consumer = await consumers.start(tenantId, seen, { durableName });
    const event = productCreated(tenantId);
    const { seq } = await publisher.publish(event);

    await waitFor('the event to be handled', () => seen.deliveries.length === 1);
    await waitFor('the message to be acked', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(seen.deliveries).toEqual([
      { event, delivery: { redelivered: false, deliveryCount: 1, streamSeq: seq } },
    ]);
    expect(consumer.stats()).toEqual({
      delivered: 1,
      applied: 1,
      invalid: 0,
      failed: 0,
      redelivered: 0,
      deadLettered: 0,
    });
    expect(seen.errors).toEqual([]);
  });

  it('redelivers an event whose handler failed, and applies it on the next delivery', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const seen = recorder();
    const consumer = await consumers.start(tenantId, seen, {
      durableName,
      handler: (event, delivery) => {
        seen.deliveries.push({ event, delivery });
        if (delivery.deliveryCount === 1) return Promise.reject(new Error('database unavailable'));
        return Promise.resolve();
      },
    });
    await publisher.publish(productCreated(tenantId));

    await waitFor('the second delivery', () => seen.deliveries.length === 2);
    await waitFor('the message to be acked', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(seen.deliveries.map((d) => d.delivery.deliveryCount)).toEqual([1, 2]);
    expect(seen.deliveries[1]?.delivery.redelivered).toBe(true);
    expect(consumer.stats()).toMatchObject({ delivered: 2, applied: 1, failed: 1, redelivered: 1 });
    expect(seen.errors.map((e) => e.report)).toEqual([
      expect.objectContaining({ stage: 'handler', willRetry: true, deliveryCount: 1 }),
    ]);
  });

  it('acks and dead-letters malformed and invalid messages without holding up the next good event', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const dlq = deadLetterSubject(durableName, bed.deadLetterPrefix);
    const seen = recorder();
    const consumer = await consumers.start(tenantId, seen, { durableName, deadLetter: { subject: dlq } });
    const subject = `${bed.subjectPrefix}.${tenantId}.product.created`;
    await bed.js.publish(subject, '{"not": json', { msgID: randomUUID() });
    await bed.js.publish(subject, JSON.stringify({ ...productCreated(tenantId), subject: {} }), {
      msgID: randomUUID(),
    });
    const good = productCreated(tenantId);
    await publisher.publish(good);

    await waitFor('the good event to be handled', () => seen.deliveries.length === 1);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(seen.deliveries.map((d) => d.event)).toEqual([good]);
    expect(seen.invalid.map((r) => r.reason)).toEqual(['MALFORMED_JSON', 'INVALID_EVENT']);
    const letters = await deadLetters(bed, dlq);
    expect(letters.map((m) => m.header.get(DEAD_LETTER_HEADERS.reason))).toEqual([
      'MALFORMED_JSON',
      'INVALID_EVENT',
    ]);
    expect(letters[0]?.string()).toBe('{"not": json');
    expect(letters[1]?.header.get(DEAD_LETTER_HEADERS.subject)).toBe(subject);
    expect(consumer.stats()).toMatchObject({
      delivered: 3,
      applied: 1,
      invalid: 2,
      deadLettered: 2,
      redelivered: 0,
    });
  });

  it('acks and dead-letters an event whose handler fails permanently, without retrying it', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const dlq = deadLetterSubject(durableName, bed.deadLetterPrefix);
    const seen = recorder();
    const consumer = await consumers.start(tenantId, seen, {
      durableName,
      deadLetter: { subject: dlq },
      handler: (event, delivery) => {
        seen.deliveries.push({ event, delivery });
        return Promise.reject(new PermanentEventError('the product was never registered'));
      },
    });
    await publisher.publish(productCreated(tenantId));

    await waitFor('the dead letter', async () => (await deadLetters(bed, dlq)).length === 1);
    await waitFor('the message to be acked', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(seen.deliveries).toHaveLength(1);
    const [letter] = await deadLetters(bed, dlq);
    expect(letter?.header.get(DEAD_LETTER_HEADERS.reason)).toBe('PERMANENT_FAILURE');
    expect(letter?.header.get(DEAD_LETTER_HEADERS.detail)).toBe('the product was never registered');
    expect(seen.errors.map((e) => e.report)).toEqual([
      expect.objectContaining({ stage: 'handler', willRetry: false }),
    ]);
    expect(consumer.stats()).toMatchObject({ delivered: 1, applied: 0, failed: 1, deadLettered: 1 });
  });

  it('gives up on an event after maxDeliver failed deliveries and dead-letters it', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const dlq = deadLetterSubject(durableName, bed.deadLetterPrefix);
    const seen = recorder();
    await consumers.start(tenantId, seen, {
      durableName,
      maxDeliver: 3,
      deadLetter: { subject: dlq },
      handler: (event, delivery) => {
        seen.deliveries.push({ event, delivery });
        return Promise.reject(new Error('still failing'));
      },
    });
    await publisher.publish(productCreated(tenantId));

    await waitFor('the dead letter', async () => (await deadLetters(bed, dlq)).length === 1);
    await waitFor('the message to leave the consumer', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(seen.deliveries.map((d) => d.delivery.deliveryCount)).toEqual([1, 2, 3]);
    const [letter] = await deadLetters(bed, dlq);
    expect(letter?.header.get(DEAD_LETTER_HEADERS.reason)).toBe('RETRIES_EXHAUSTED');
    expect(letter?.header.get(DEAD_LETTER_HEADERS.deliveryCount)).toBe('3');
    expect(seen.errors.map((e) => e.report.willRetry)).toEqual([true, true, false]);
  });
});
