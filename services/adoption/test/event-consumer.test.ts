import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { eventSubject, type AdoptionState__Output, type ProductEvent } from '@tap/contracts';
import { startDurableConsumer } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { productEventHandler } from '../src/events/product-event-handler.js';
import { tierCatalogueRepository } from '../src/store/tier-catalogue-repository.js';
import { productEvent, publishCopy, supplierJourney } from './support/events.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { consumerSettled, settleThenReplay } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';
import { waitFor } from '@tap/testkit';

const START = new Date('2025-03-01T09:00:00.000Z');
const NOW = new Date('2025-03-09T12:00:00.000Z');
const silent = createLogger({ service: 'adoption-test', level: 'silent' });

/** The state without what names the tenant, for comparing two tenants' journeys. */
// The version counts writes: the batched consumer (the clean run) writes a tenant once per
// batch, the per-message handler (the chaotic run) once per event.
function comparable(state: AdoptionState__Output) {
  const { companyId: _companyId, lastRecomputedAt: _at, version: _version, ...rest } = state;
  return rest;
}

describe('the milestone detector under redelivery, duplicates and restarts', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('consumer');
    bed.clock.set(NOW);
  });
  afterAll(async () => {
    await bed?.close();
  });

  const stateOf = async (tenantId: string) => unaryCall(bed.client, 'GetState', {}, await bed.as(tenantId));
  const signalsOf = async (tenantId: string) =>
    (await unaryCall(bed.client, 'ListRiskSignals', {}, await bed.as(tenantId))).signals.map(
      ({ id: _id, ...s }) => s,
    );

  it('ends in the state of a clean single delivery', async () => {
    const clean = randomUUID();
    const chaotic = randomUUID();
    await bed.setTier(clean, 'CORE');

    // Clean: every event once, one consumer.
    const first = await bed.startConsumer();
    for (const event of supplierJourney(clean, START)) await bed.publisher.publish(event);
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    await first.stop();
    // Only the chaotic durable below ever sees this tenant's events, its tier.changed included.
    await bed.setTier(chaotic, 'CORE');

    // Chaotic: a second durable over the same stream that loses the ack of every third write
    // (the handler wrote, then the process "died"), while every event is also stored twice and
    // the consumer is stopped mid-stream, restarted, then deleted and recreated (a full replay).
    const durable = `${bed.events.consumerName}_chaos`;
    // As another replica would have: its own store objects and lock (the bed's consumer is stopped).
    const handler = productEventHandler({
      ...storeIngestDeps(bed.db, bed.clock),
      // The per-tier table, as every replica has: the projection it writes carries the offers.
      tiers: tierCatalogueRepository(bed.db),
      logger: silent,
    });
    const lostAcks = new Set<string>();
    let writes = 0;
    const start = () =>
      startDurableConsumer(bed.js, bed.jsm, {
        streamName: bed.events.streamName,
        durableName: durable,
        subjectPrefix: bed.events.subjectPrefix,
        filterSubjects: [`${bed.events.subjectPrefix}.${chaotic}.>`],
        retryBackoff: { initialMs: 20, maxMs: 50 },
        // A message a stopped instance's open pull still received is redelivered after this.
        ackWaitMs: 1_500,
        handler: async (event: ProductEvent) => {
          await handler(event);
          writes += 1;
          if (writes % 3 === 0 && !lostAcks.has(event.id)) {
            lostAcks.add(event.id);
            throw new Error('ack lost after the write');
          }
        },
        onInvalid: () => undefined,
        onError: () => undefined,
      });
    const journey = supplierJourney(chaotic, START);
    let consumer = await start();
    for (const [i, event] of journey.entries()) {
      await bed.publisher.publish(event);
      await publishCopy(bed.js, bed.events.subjectPrefix, event);
      if (i === 4) {
        await consumer.stop();
        consumer = await start();
      }
    }
    await settleThenReplay(bed.jsm, bed.events.streamName, durable, consumer, start);

    expect(lostAcks.size).toBeGreaterThan(0);
    const [cleanState, chaoticState] = await Promise.all([stateOf(clean), stateOf(chaotic)]);
    // One write per event and one for the tier.changed, whatever was redelivered or replayed.
    expect(chaoticState.version).toBe(journey.length + 1);
    expect(chaoticState.appliedEventCount).toBe(journey.length);
    expect(comparable(chaoticState)).toEqual(comparable(cleanState));
    expect(chaoticState.milestones.filter((m) => m.status === 'DONE').length).toBeGreaterThan(5);
    const normalise = (signals: Awaited<ReturnType<typeof signalsOf>>, tenantId: string) =>
      signals.map((s) => ({
        ...s,
        subjectRef: {
          ...s.subjectRef,
          ...(s.subjectRef['companyId'] === tenantId ? { companyId: 'T' } : {}),
        },
      }));
    expect(normalise(await signalsOf(chaotic), chaotic)).toEqual(normalise(await signalsOf(clean), clean));
  });

  it('acknowledges malformed events and kinds it has no rule for, and goes on with the next one', async () => {
    const tenantId = randomUUID();
    const consumer = await bed.startConsumer();
    const subject = eventSubject(tenantId, 'product.created', bed.events.subjectPrefix);
    await bed.js.publish(subject, 'not json at all', { msgID: randomUUID() });
    await bed.js.publish(subject, JSON.stringify({ id: randomUUID(), type: 'product.created', tenantId }), {
      msgID: randomUUID(),
    });
    await bed.publisher.publish(productEvent(tenantId, 'product.created', { productId: 'p-9' }, START));
    await waitFor(
      'the valid event to be applied',
      async () => (await stateOf(tenantId)).appliedEventCount === 1,
    );
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    expect(consumer.stats()).toMatchObject({ invalid: 2, retried: 0 });
  });

  it('does not count its own milestone.completed event a second time', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, START));
    await waitFor('the profile event', async () => (await stateOf(tenantId)).appliedEventCount === 1);
    const { version } = await stateOf(tenantId);
    const done = await unaryCall(
      bed.client,
      'CompleteMilestone',
      { key: 'kickoff_call_held', evidenceRef: 'crm:1', expectedVersion: version },
      await bed.as(tenantId),
    );
    expect(done.version).toBe(version + 1);
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    // The consumer has seen the milestone.completed the call published; the version stays put,
    // so a client holding the version it got can still write with it.
    expect((await stateOf(tenantId)).version).toBe(version + 1);
  });
});
