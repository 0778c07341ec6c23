import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEventPublisher, DEFAULT_FETCH_EXPIRES_MS, type EventPublisher } from '../src/index.js';
import { Ledger, batchRecorder, batchStarter } from './support/batch.js';
import { consumerStarter, recorder, settled, uniqueDurable } from './support/consumers.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';
import { waitFor } from './support/wait-for.js';

// Longer than nats.js's idle-heartbeat monitor gives a silent pull request (two missed 500 ms
// heartbeats) and longer than the request's own expiry.
const SLOW_MS = 3 * DEFAULT_FETCH_EXPIRES_MS;

/**
 * A pull request whose iterator is not read for a while (its loop is busy with a slow handler, or
 * waits for room) hears nothing from the server once the request is over. nats.js's heartbeat
 * monitor then ends the request with `heartbeats missed`, and the loop used to take that for a
 * broken consumer: it reported an error, paused and looked the consumer up again. The same
 * silence follows a request that nats-server 2.9 expires without its 408 answer.
 */
describe('the end of a pull request', () => {
  let bed: EventsTestBed;
  let publisher: EventPublisher;
  // The consumers the running test started.
  let stopAll: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await stopAll?.();
    stopAll = undefined;
  });

  beforeAll(async () => {
    bed = await openTestBed('pull_request_end');
    publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
  });

  afterAll(async () => {
    await bed?.close();
  });

  describe('in a durable consumer', () => {
    it('is not a pull failure while a handler runs past the request', async () => {
      const tenantId = randomUUID();
      const durableName = uniqueDurable();
      const seen = recorder();
      const started = consumerStarter(bed);
      stopAll = () => started.stopAll();
      await started.start(tenantId, seen, {
        durableName,
        handler: async (event, delivery) => {
          seen.deliveries.push({ event, delivery });
          if (seen.deliveries.length === 1) await sleep(SLOW_MS);
        },
      });
      const published = [];
      for (let i = 0; i < 3; i += 1) published.push(await publisher.publish(productCreated(tenantId)));

      await waitFor('all three events to be handled', () => seen.deliveries.length === 3, {
        timeoutMs: 10_000,
      });
      await waitFor('every message to be acked', () => settled(bed, durableName));

      expect(seen.deliveries.map((d) => d.delivery.streamSeq)).toEqual(published.map((p) => p.seq));
      expect(seen.errors.map((e) => e.report.stage)).not.toContain('pull');
    });
  });

  describe('in a batch consumer', () => {
    it('is not a pull failure while the pull side waits for room behind a slow batch', async () => {
      const tenantId = randomUUID();
      const durableName = uniqueDurable();
      const seen = batchRecorder();
      const ledger = new Ledger();
      const apply = ledger.handler();
      const started = batchStarter(bed);
      stopAll = () => started.stopAll();
      // Two messages a batch, so four in memory: the pull side has to wait for room.
      await started.start(seen, {
        durableName,
        tenantId,
        batchSize: 2,
        flushWindowMs: 10,
        ackWaitMs: 10_000,
        handleBatch: async (groups) => {
          if (ledger.calls.length === 0) await sleep(SLOW_MS);
          return apply(groups);
        },
      });
      const published = [];
      for (let i = 0; i < 8; i += 1) published.push((await publisher.publish(productCreated(tenantId))).seq);

      await waitFor('all eight events to be applied', () => ledger.total() === 8, { timeoutMs: 10_000 });
      await waitFor('every message to be acked', () => settled(bed, durableName));

      expect(ledger.of(tenantId)).toEqual(published);
      expect(seen.errors.map((e) => e.report.stage)).not.toContain('pull');
    });
  });
});
