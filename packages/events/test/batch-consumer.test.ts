import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DEAD_LETTER_HEADERS,
  createEventPublisher,
  deadLetterSubject,
  type BatchReport,
  type EventPublisher,
  type TenantOutcome,
} from '../src/index.js';
import { Ledger, batchRecorder, batchStarter } from './support/batch.js';
import { deadLetters, settled, uniqueDurable } from './support/consumers.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';
import { gate, waitFor } from './support/wait-for.js';

describe('a batch consumer', () => {
  let bed: EventsTestBed;
  let publisher: EventPublisher;
  let consumers: ReturnType<typeof batchStarter>;

  beforeEach(async () => {
    bed = await openTestBed('batch_consumer');
    publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
    consumers = batchStarter(bed);
  });

  afterEach(async () => {
    await consumers.stopAll();
    await bed?.close();
  });

  async function publishFor(tenantId: string, count: number): Promise<number[]> {
    const seqs: number[] = [];
    for (let i = 0; i < count; i += 1) seqs.push((await publisher.publish(productCreated(tenantId))).seq);
    return seqs;
  }

  it('hands over many events at once, grouped per tenant, each group in stream order', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const published = { [a]: [] as number[], [b]: [] as number[] };
    for (let i = 0; i < 40; i += 1) {
      const tenant = i % 3 === 0 ? b : a;
      published[tenant]?.push((await publisher.publish(productCreated(tenant))).seq);
    }
    const ledger = new Ledger();
    const durableName = uniqueDurable();
    await consumers.start(batchRecorder(), { durableName, handleBatch: ledger.handler(), batchSize: 100 });

    await waitFor('every event to be applied', () => ledger.total() === 40);
    await waitFor('every message to be acked', () => settled(bed, durableName));

    expect(ledger.of(a)).toEqual(published[a]);
    expect(ledger.of(b)).toEqual(published[b]);
    // Published before the start, so they arrive together: fewer calls than events, one group per tenant.
    expect(ledger.calls.length).toBeLessThan(40);
    for (const call of ledger.calls) {
      expect(new Set(call.map((group) => group.tenantId)).size).toBe(call.length);
      for (const group of call) {
        expect(group.items.every((item) => item.event.tenantId === group.tenantId)).toBe(true);
        const seqs = group.items.map((item) => item.seq);
        expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      }
    }
  });

  it("reports each batch's wait: the age of its oldest message when the handler got it", async () => {
    const tenant = randomUUID();
    await publishFor(tenant, 5);
    // The messages sit in the stream this long before any consumer exists.
    const parked = 300;
    await sleep(parked);
    const reports: BatchReport[] = [];
    const ledger = new Ledger();
    await consumers.start(batchRecorder(), {
      durableName: uniqueDurable(),
      handleBatch: ledger.handler(),
      onBatch: (report) => reports.push(report),
    });

    await waitFor('every event to be applied', () => ledger.total() === 5);
    await waitFor('the batch to be reported', () => reports.length > 0);
    expect(reports[0]?.waitedMs).toBeGreaterThanOrEqual(parked);
    expect(reports.reduce((n, r) => n + r.messages, 0)).toBe(5);
  });

  it('offers only the failed tenant again, in process, and no later event of it overtakes', async () => {
    const [failing, healthy] = [randomUUID(), randomUUID()];
    const ledger = new Ledger();
    let failuresLeft = 3;
    const calls: string[][] = [];
    const handleBatch = (groups: Parameters<ReturnType<Ledger['handler']>>[0]) => {
      calls.push(groups.map((group) => group.tenantId));
      const outcomes = new Map<string, TenantOutcome>();
      for (const group of groups) {
        if (group.tenantId === failing && failuresLeft > 0) {
          failuresLeft -= 1;
          outcomes.set(group.tenantId, { kind: 'retry', reason: 'write failed' });
          continue;
        }
        ledger.apply(group);
        outcomes.set(group.tenantId, { kind: 'ok' });
      }
      return Promise.resolve(outcomes);
    };
    const first = [...(await publishFor(failing, 5)), ...(await publishFor(healthy, 5))];
    const durableName = uniqueDurable();
    const seen = batchRecorder();
    const consumer = await consumers.start(seen, { durableName, handleBatch, batchSize: 50 });
    await waitFor('the first batch to be handed over', () => calls.length >= 1);
    const later = await publishFor(failing, 5);

    await waitFor('every event to be applied', () => ledger.total() === 15);
    await waitFor('every message to be acked', () => settled(bed, durableName));

    expect(ledger.of(failing)).toEqual([...first.slice(0, 5), ...later]);
    expect(ledger.of(healthy)).toEqual(first.slice(5));
    // The retries carried the failing tenant alone; the healthy one was written once.
    expect(calls.slice(1, 4)).toEqual([[failing], [failing], [failing]]);
    expect(calls.filter((tenants) => tenants.includes(healthy))).toHaveLength(1);
    expect(consumer.stats()).toMatchObject({ retried: 3, applied: 15 });
    expect(seen.errors.filter((e) => e.report.stage === 'handler')).toHaveLength(3);
  });

  it('keeps a group whose handler threw, and redelivers nothing while it retries', async () => {
    const tenantId = randomUUID();
    const ledger = new Ledger();
    let throwsLeft = 2;
    const seqs = await publishFor(tenantId, 4);
    const durableName = uniqueDurable();
    await consumers.start(batchRecorder(), {
      durableName,
      handleBatch: (groups) => {
        if (throwsLeft > 0) {
          throwsLeft -= 1;
          return Promise.reject(new Error('connection reset'));
        }
        return ledger.handler()(groups);
      },
    });
    await waitFor('every event to be applied', () => ledger.total() === 4);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(ledger.of(tenantId)).toEqual(seqs);
    expect(
      ledger.calls
        .flat()
        .flatMap((g) => g.items)
        .every((item) => item.deliveryCount === 1),
    ).toBe(true);
  });

  it('dead-letters malformed, oversized, unknown-kind and rejected events and applies the rest of their batch', async () => {
    const tenantId = randomUUID();
    const prefix = bed.subjectPrefix;
    const good = await publishFor(tenantId, 1);
    await bed.js.publish(`${prefix}.${tenantId}.product.created`, new TextEncoder().encode('{"id":'));
    const huge = { ...productCreated(tenantId), data: { blob: 'x'.repeat(2_000) } };
    await bed.js.publish(
      `${prefix}.${tenantId}.product.created`,
      new TextEncoder().encode(JSON.stringify(huge)),
    );
    const unknown = { ...productCreated(tenantId), type: 'product.teleported' };
    await bed.js.publish(
      `${prefix}.${tenantId}.product.teleported`,
      new TextEncoder().encode(JSON.stringify(unknown)),
    );
    const rejected = await publishFor(tenantId, 1);
    good.push(...(await publishFor(tenantId, 1)));

    const ledger = new Ledger();
    const dlSubject = deadLetterSubject('batch', bed.deadLetterPrefix);
    const durableName = uniqueDurable();
    const seen = batchRecorder();
    await consumers.start(seen, {
      durableName,
      maxEventBytes: 1_000,
      deadLetter: { subject: dlSubject },
      batchSize: 50,
      flushWindowMs: 300,
      handleBatch: (groups) => {
        const outcomes = new Map<string, TenantOutcome>();
        for (const group of groups) {
          ledger.apply({ ...group, items: group.items.filter((item) => !rejected.includes(item.seq)) });
          const refused = group.items.filter((item) => rejected.includes(item.seq));
          outcomes.set(group.tenantId, {
            kind: 'ok',
            rejected: refused.map((item) => ({ seq: item.seq, reason: 'product belongs to no catalogue' })),
          });
        }
        return Promise.resolve(outcomes);
      },
    });

    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(ledger.of(tenantId)).toEqual(good);
    expect(seen.invalid.map((r) => r.reason).sort()).toEqual([
      'INVALID_EVENT',
      'MALFORMED_JSON',
      'OVERSIZED',
    ]);
    const letters = await deadLetters(bed, dlSubject);
    expect(letters.map((m) => m.header.get(DEAD_LETTER_HEADERS.reason)).sort()).toEqual([
      'INVALID_EVENT',
      'MALFORMED_JSON',
      'OVERSIZED',
      'REJECTED',
    ]);
    const refusal = letters.find((m) => m.header.get(DEAD_LETTER_HEADERS.reason) === 'REJECTED');
    expect(refusal?.header.get(DEAD_LETTER_HEADERS.detail)).toBe('product belongs to no catalogue');
  });

  it('finishes the batch in hand on stop(), hands back the rest, and a successor applies each event once', async () => {
    const tenantId = randomUUID();
    const ledger = new Ledger();
    const release = gate();
    const inHand: number[] = [];
    const seqs = await publishFor(tenantId, 30);
    const durableName = uniqueDurable();
    const first = await consumers.start(batchRecorder(), {
      durableName,
      batchSize: 10,
      handleBatch: async (groups) => {
        inHand.push(...groups.flatMap((g) => g.items.map((item) => item.seq)));
        await release.promise;
        return ledger.handler()(groups);
      },
    });
    await waitFor('a batch to be in hand', () => inHand.length > 0);
    let stopped = false;
    const stopping = first.stop().then(() => {
      stopped = true;
    });
    // Long enough for a stop that does not wait for the handler to have resolved already.
    await sleep(300);
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(ledger.of(tenantId)).toEqual(seqs.slice(0, 10));
    expect(first.stats().batches).toBe(1);

    await consumers.start(batchRecorder(), { durableName, handleBatch: ledger.handler() });
    await waitFor('the rest to be applied', () => ledger.total() === 30);
    await waitFor('every message to be acked', () => settled(bed, durableName));
    expect(ledger.of(tenantId)).toEqual(seqs);
  });
});
