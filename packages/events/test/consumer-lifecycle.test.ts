import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { nanos } from '@nats-io/nats-core';
import { createEventPublisher, DEFAULT_FETCH_EXPIRES_MS, type EventPublisher } from '../src/index.js';
import { consumerStarter, recorder, settled, uniqueDurable } from './support/consumers.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';
import { gate, waitFor } from './support/wait-for.js';

const QUIET_MS = 600;

describe('stopping and restarting a durable event consumer', () => {
  let bed: EventsTestBed;
  let publisher: EventPublisher;
  let consumers: ReturnType<typeof consumerStarter>;

  beforeAll(async () => {
    bed = await openTestBed('consumer_lifecycle');
    publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
    consumers = consumerStarter(bed);
  });

  afterEach(async () => {
    await consumers.stopAll();
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('waits in stop() for the handler in flight, acks its message, and does not see it again after a restart', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const seen = recorder();
    const release = gate();
    let finished = 0;
    const first = await consumers.start(tenantId, seen, {
      durableName,
      handler: async (event, delivery) => {
        seen.deliveries.push({ event, delivery });
        await release.promise;
        finished += 1;
      },
    });
    const inFlight = productCreated(tenantId);
    await publisher.publish(inFlight);
    await waitFor('the handler to start', () => seen.deliveries.length === 1);

    let stopped = false;
    const stopping = first.stop().then(() => {
      stopped = true;
    });
    await sleep(200);
    expect(stopped).toBe(false);
    release.open();
    await stopping;

    expect(finished).toBe(1);
    expect(await settled(bed, durableName)).toBe(true);

    const again = recorder();
    await consumers.start(tenantId, again, { durableName });
    const next = productCreated(tenantId);
    await publisher.publish(next);
    await waitFor('the restarted consumer to handle the next event', () => again.deliveries.length === 1);
    await sleep(QUIET_MS);
    expect(again.deliveries.map((d) => d.event.id)).toEqual([next.id]);
  });

  it('resumes in a new instance with the same durable name where the old one stopped, losing and repeating nothing', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const before = recorder();
    const release = gate();
    const events = [1, 2, 3].map(() => productCreated(tenantId));
    const old = await consumers.start(tenantId, before, {
      durableName,
      handler: async (event, delivery) => {
        before.deliveries.push({ event, delivery });
        if (event.id === events[1]?.id) await release.promise;
      },
    });
    for (const event of events) await publisher.publish(event);
    await waitFor('the second event to be in flight', () => before.deliveries.length === 2);

    const stopping = old.stop();
    release.open();
    await stopping;
    const whileStopped = productCreated(tenantId);
    await publisher.publish(whileStopped);

    const after = recorder();
    await consumers.start(tenantId, after, { durableName });
    await waitFor('the rest to be handled', () => before.deliveries.length + after.deliveries.length === 4);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(before.deliveries.map((d) => d.event.id)).toEqual([events[0]?.id, events[1]?.id]);
    expect(after.deliveries.map((d) => d.event.id)).toEqual([events[2]?.id, whileStopped.id]);
  });

  it('hands back every message it pulled ahead when it stops, so a new instance gets them long before the ack wait', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const before = recorder();
    // A steady stream of slow handlers keeps pulls outstanding, so the stop lands while the
    // server is still sending; with a 60 s ack wait, anything it loses would show as a stall.
    const old = await consumers.start(tenantId, before, {
      durableName,
      ackWaitMs: 60_000,
      handler: async (event, delivery) => {
        before.deliveries.push({ event, delivery });
        await sleep(15);
      },
    });
    const events = Array.from({ length: 60 }, () => productCreated(tenantId));
    await Promise.all(events.map((event) => publisher.publish(event)));
    await waitFor('a few events to be handled', () => before.deliveries.length >= 10);
    await old.stop();

    const after = recorder();
    const restartedAt = Date.now();
    await consumers.start(tenantId, after, { durableName, ackWaitMs: 60_000 });
    await waitFor(
      'the rest to be handled',
      () => before.deliveries.length + after.deliveries.length >= events.length,
      {
        timeoutMs: 10_000,
      },
    );
    const handedBackWithinMs = Date.now() - restartedAt;
    await waitFor('every message to be acked', () => settled(bed, durableName), { timeoutMs: 2_000 });

    const ids = [...before.deliveries, ...after.deliveries].map((d) => d.event.id);
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
    expect(handedBackWithinMs).toBeLessThan(5_000);
    const info = await bed.jsm.consumers.info(bed.streamName, durableName);
    expect(info.num_redelivered).toBe(0);
  });

  it('stops within the life of one pull request when no message is in flight, and a second stop() is harmless', async () => {
    const consumer = await consumers.start(randomUUID(), recorder(), { durableName: uniqueDurable() });
    const started = Date.now();
    await consumer.stop();
    await consumer.stop();
    // The open request is left to expire rather than cut short (see pull-loop.ts).
    expect(Date.now() - started).toBeLessThan(DEFAULT_FETCH_EXPIRES_MS + 500);
  });

  it('creates the same durable consumer from several replicas starting at once, and each gets its share', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const seen = recorder();
    await Promise.all([1, 2, 3].map(() => consumers.start(tenantId, seen, { durableName })));
    const events = [1, 2, 3, 4, 5, 6].map(() => productCreated(tenantId));
    for (const event of events) await publisher.publish(event);

    await waitFor('every event to be handled', () => seen.deliveries.length >= events.length);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    await sleep(QUIET_MS);

    expect(seen.deliveries.map((d) => d.event.id).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it('recreates its durable consumer when it is deleted underneath it, reports that, and carries on', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const seen = recorder();
    await consumers.start(tenantId, seen, { durableName });
    const before = productCreated(tenantId);
    await publisher.publish(before);
    await waitFor('the first event to be handled', () => seen.deliveries.length === 1);

    await bed.jsm.consumers.delete(bed.streamName, durableName);
    await waitFor('the loss to be reported', () => seen.errors.some((e) => e.report.stage === 'pull'));
    const after = productCreated(tenantId);
    await publisher.publish(after);

    // A recreated durable starts from the beginning of the stream again: at-least-once, and
    // the handler's own dedupe is what keeps the first event from being applied twice.
    await waitFor(
      'the next event to be handled',
      () => seen.deliveries.some((d) => d.event.id === after.id),
      {
        timeoutMs: 15_000,
      },
    );
    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(seen.errors.map((e) => e.report)).toContainEqual({ stage: 'pull', willRetry: true });
  });

  it('brings an existing durable consumer to the ack wait and max deliveries a new start asks for', async () => {
    const tenantId = randomUUID();
    const durableName = uniqueDurable();
    const first = await consumers.start(tenantId, recorder(), {
      durableName,
      maxDeliver: 5,
      ackWaitMs: 30_000,
    });
    await first.stop();
    await consumers.start(tenantId, recorder(), { durableName, maxDeliver: 7, ackWaitMs: 10_000 });
    const { config } = await bed.jsm.consumers.info(bed.streamName, durableName);
    expect(config).toMatchObject({
      max_deliver: 7,
      ack_wait: nanos(10_000),
      ack_policy: 'explicit',
      deliver_policy: 'all',
    });
    expect(config.filter_subject).toBe(`${bed.subjectPrefix}.${tenantId}.>`);
  });
});
