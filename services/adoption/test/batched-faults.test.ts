import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { StoredMsg } from '@nats-io/jetstream';
import { eventSubject } from '@tap/contracts';
import { DependencyUnavailableError } from '@tap/errors';
import { DEAD_LETTER_HEADERS, deadLetterSubject, startBatchConsumer, type BatchHandler } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { DEAD_LETTER_STREAM } from '../src/app.js';
import { productBatchHandler } from '../src/events/batch-handler.js';
import { rawEventsRepository } from '../src/store/raw-events-repository.js';
import { productEvent } from './support/events.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-03-01T00:00:00.000Z');
const silent = createLogger({ service: 'adoption-test', level: 'silent' });

/** One hand-over of the failing tenant's group to the detector, and what the detector answered. */
interface Offer {
  readonly seqs: readonly number[];
  readonly outcome: 'ok' | 'retry';
}

describe('the batched milestone detector when a write fails half way', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('batched_faults');
    // The bed made the event stream: these tests publish before a consumer starts.
    bed.clock.set(NOW);
  });
  afterAll(async () => {
    await bed?.close();
  });

  const stateOf = async (tenantId: string) =>
    unaryCall(bed.client, 'GetState', {}, { ...(await bed.as(tenantId)), deadlineMs: 20_000 });

  it('keeps the tenant’s stream order, applies each event once, and lets the other tenants go on', async () => {
    const [failing, other] = [randomUUID(), randomUUID()];
    await Promise.all([bed.setTier(failing, 'CORE'), bed.setTier(other, 'CORE')]);
    const deps = storeIngestDeps(bed.db, bed.clock);
    const { aggregates } = deps;
    const rawEvents = rawEventsRepository(bed.db);
    // The failing tenant's second write never reaches the database, and the retry after it is
    // written but its raw-log append fails (as a process dying between the write and the acks):
    // the batch's one append fails, then the tenant's own.
    let writes = 0;
    let lostWrites = 0;
    let lostAppends = 0;
    let batchAppends = 0;
    const appendFails = (tenantIds: readonly string[]) =>
      tenantIds.includes(failing) && writes === 3 && lostAppends === 0;
    const handler = productBatchHandler({
      ...deps,
      aggregates: {
        load: (tenantId) => aggregates.load(tenantId),
        applyFacts: async (tenantId, ...rest) => {
          if (tenantId === failing && (writes += 1) === 2) {
            lostWrites += 1;
            throw new DependencyUnavailableError('injected: the write did not reach the database');
          }
          return aggregates.applyFacts(tenantId, ...rest);
        },
      },
      rawEvents: {
        existing: (tenantId, ids) => rawEvents.existing(tenantId, ids),
        appendGroups: async (groups, at) => {
          batchAppends += 1;
          if (appendFails(groups.map((g) => g.tenantId)))
            throw new DependencyUnavailableError('injected: the batch’s raw log did not reach the database');
          return rawEvents.appendGroups(groups, at);
        },
        append: async (tenantId, facts, at) => {
          if (appendFails([tenantId])) {
            lostAppends += 1;
            throw new DependencyUnavailableError('injected: written, then the process lost its acks');
          }
          return rawEvents.append(tenantId, facts, at);
        },
      },
      logger: silent,
    });
    const offers: Offer[] = [];
    const otherOutcomes: string[] = [];
    const recording: BatchHandler = async (groups) => {
      const outcomes = await handler(groups);
      for (const group of groups) {
        const outcome = outcomes.get(group.tenantId)?.kind === 'retry' ? 'retry' : 'ok';
        if (group.tenantId === failing) offers.push({ seqs: group.items.map((i) => i.seq), outcome });
        if (group.tenantId === other) otherOutcomes.push(outcome);
      }
      return outcomes;
    };
    const durable = `${bed.events.consumerName}_halfway`;
    const consumer = await startBatchConsumer(bed.js, bed.jsm, {
      streamName: bed.events.streamName,
      durableName: durable,
      subjectPrefix: bed.events.subjectPrefix,
      // No filter (the server allows one subject): this file's stream holds nothing else yet but
      // the two tenants' tier.changed (setTier above).
      handleBatch: recording,
      // Small batches: the failing tenant's events span many groups, the other tenant's share them.
      batchSize: 10,
      retryBackoff: { initialMs: 20, maxMs: 50 },
      onInvalid: () => undefined,
      onError: () => undefined,
    });
    try {
      await bed.publisher.publish(productEvent(failing, 'company.profile_completed', {}, NOW));
      for (let i = 0; i < 60; i += 1) {
        await bed.publisher.publish(
          productEvent(failing, 'product.created', { productId: `p-${i}` }, new Date(NOW.getTime() + i)),
        );
        if (i % 2 === 0)
          await bed.publisher.publish(
            productEvent(other, 'product.created', { productId: `o-${i}` }, new Date(NOW.getTime() + i)),
          );
      }
      await consumerSettled(bed.jsm, bed.events.streamName, durable);
    } finally {
      await consumer.stop();
    }

    expect({ lostWrites, lostAppends }).toEqual({ lostWrites: 1, lostAppends: 1 });
    expect(offers.filter((o) => o.outcome === 'retry')).toHaveLength(2);
    // Stream order: a retried group is offered again first, whole; after a success only later
    // events of the tenant come.
    for (const [i, offer] of offers.entries()) {
      const previous = offers[i - 1];
      if (previous === undefined) continue;
      if (previous.outcome === 'retry')
        expect(offer.seqs.slice(0, previous.seqs.length)).toEqual(previous.seqs);
      else expect(offer.seqs[0]).toBeGreaterThan(Math.max(...previous.seqs));
    }
    const handed = [...new Set(offers.flatMap((o) => o.seqs))];
    expect(handed).toEqual([...handed].sort((a, b) => a - b));
    // The tenant's tier.changed and its 61 product events.
    expect(handed).toHaveLength(62);
    // Each once, the written-but-not-acked group included; the other tenant never waited on a retry.
    expect((await stateOf(failing)).appliedEventCount).toBe(61);
    expect((await aggregates.load(failing)).lastSeq).toBe(Math.max(...handed));
    expect(otherOutcomes.every((o) => o === 'ok')).toBe(true);
    expect((await stateOf(other)).appliedEventCount).toBe(30);
    // The raw log: one append per batch, and complete, the group whose append failed included
    // (logged when it came back as duplicates).
    expect(batchAppends).toBeGreaterThan(0);
    expect(batchAppends).toBeLessThanOrEqual(offers.length);
    expect([await rawEvents.countFor(failing), await rawEvents.countFor(other)]).toEqual([61, 30]);
  }, 120_000);

  it('dead-letters a malformed, an unknown-kind and an oversized event, each with its reason, and applies the tenant’s others', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const consumer = await bed.startConsumer();
    const subject = eventSubject(tenantId, 'product.created', bed.events.subjectPrefix);
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, NOW));
    await bed.js.publish(subject, '{"id":', { msgID: randomUUID() });
    const unknown = {
      ...productEvent(tenantId, 'product.created', { productId: 'p-x' }, NOW),
      type: 'product.teleported',
    };
    await bed.js.publish(
      `${bed.events.subjectPrefix}.${tenantId}.product.teleported`,
      JSON.stringify(unknown),
      {
        msgID: randomUUID(),
      },
    );
    const huge = productEvent(tenantId, 'product.created', { productId: 'p-big' }, NOW, {
      blob: 'x'.repeat(100_000),
    });
    await bed.js.publish(subject, JSON.stringify(huge), { msgID: randomUUID() });
    await bed.publisher.publish(productEvent(tenantId, 'product.created', { productId: 'p-1' }, NOW));
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    const { deadLettered } = consumer.stats();
    await consumer.stop();
    expect(deadLettered).toBeGreaterThanOrEqual(3);

    expect((await stateOf(tenantId)).appliedEventCount).toBe(2);
    const letters = await deadLettersOf(tenantId);
    expect(letters.map((m) => m.header.get(DEAD_LETTER_HEADERS.reason)).sort()).toEqual([
      'INVALID_EVENT',
      'MALFORMED_JSON',
      'OVERSIZED',
    ]);
    for (const letter of letters) expect(letter.header.get(DEAD_LETTER_HEADERS.detail)).not.toBe('');
  }, 120_000);

  /** The dead letters of this bed's durable whose original subject is the tenant's. */
  async function deadLettersOf(tenantId: string): Promise<StoredMsg[]> {
    const subject = deadLetterSubject(bed.events.consumerName);
    const { state } = await bed.jsm.streams.info(DEAD_LETTER_STREAM, { subjects_filter: subject });
    const found: StoredMsg[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq += 1) {
      const msg = await bed.jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq }).catch(() => null);
      if (msg?.subject === subject && msg.header.get(DEAD_LETTER_HEADERS.subject).includes(tenantId))
        found.push(msg);
    }
    return found;
  }
});
