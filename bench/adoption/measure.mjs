import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { ensureEventStream, createEventPublisher, startDurableConsumer } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { journeyEvent } from './journey.mjs';
import { latencySummary, until } from './stats.mjs';

const silent = { onInvalid: () => undefined, onError: () => undefined };

/**
 * Events per second a consumer applies from a backlog: all events are stored first, then the
 * consumer starts and the clock runs until it has handled them (or the budget is spent).
 * @param {{ stats(): { applied: number }; stop(): Promise<void> }} consumer
 * @param {number} total
 * @param {number} budgetMs
 */
async function drain(consumer, total, budgetMs) {
  const started = performance.now();
  await until(async () => consumer.stats().applied >= total, budgetMs, 2);
  const seconds = (performance.now() - started) / 1_000;
  const applied = consumer.stats().applied;
  await consumer.stop();
  return { events: applied, seconds, perSecond: applied / seconds };
}

/**
 * @param {string[]} tenants
 * @param {number} perTenant
 * @param {Date} start
 */
function backlog(tenants, perTenant, start) {
  return tenants.flatMap((tenantId) =>
    Array.from({ length: perTenant }, (_, n) =>
      journeyEvent(tenantId, n, new Date(start.getTime() + n * 60_000)),
    ),
  );
}

/**
 * The adoption consumer (the real handler: dedupe, recompute, one conditional write per event).
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string[]} tenants
 * @param {number} perTenant
 * @param {number} budgetMs
 */
export async function adoptionThroughput(bed, tenants, perTenant, budgetMs) {
  const events = backlog(tenants, perTenant, new Date(Date.now() - 30 * 86_400_000));
  for (const e of events) await bed.publisher.publish(e);
  return drain(await bed.adoption.startConsumer(bed.nc), events.length, budgetMs);
}

/**
 * Baseline 1: the same JetStream publish + durable consumer + ack path, handler doing nothing.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string[]} tenants
 * @param {number} perTenant
 * @param {number} budgetMs
 */
export async function jetstreamThroughput(bed, tenants, perTenant, budgetMs) {
  const prefix = `${bed.events.subjectPrefix}_raw`;
  const streamName = prefix.toUpperCase();
  bed.streams.push(streamName);
  await ensureEventStream(bed.jsm, { streamName, subjectPrefix: prefix, duplicateWindowMs: 60_000 });
  const publisher = createEventPublisher(bed.js, { subjectPrefix: prefix });
  const events = backlog(tenants, perTenant, new Date());
  for (const e of events) await publisher.publish(e);
  const consumer = await startDurableConsumer(bed.js, bed.jsm, {
    streamName,
    durableName: `${prefix}_noop`,
    subjectPrefix: prefix,
    handler: async () => undefined,
    ...silent,
  });
  return drain(consumer, events.length, budgetMs);
}

/**
 * Baseline 2: the smallest single-document write per event, `$push` of the fact and `$inc` of
 * the version, one after another on the same database.
 * @param {import('mongodb').Db} db
 * @param {string[]} tenants
 * @param {number} perTenant
 * @param {number} budgetMs
 */
export async function mongoThroughput(db, tenants, perTenant, budgetMs) {
  /** @type {import('mongodb').Collection<{ _id: string; facts: object[]; version: number }>} */
  const collection = db.collection('bench_raw_upserts');
  const events = backlog(tenants, perTenant, new Date());
  const started = performance.now();
  let written = 0;
  for (const e of events) {
    if (performance.now() - started > budgetMs) break;
    const fact = { id: e.id, type: e.type, occurredAt: e.occurredAt, subject: e.subject, data: {} };
    await collection.updateOne(
      { _id: e.tenantId },
      { $push: { facts: fact }, $inc: { version: 1 } },
      { upsert: true },
    );
    written += 1;
  }
  const seconds = (performance.now() - started) / 1_000;
  return { events: written, seconds, perSecond: written / seconds };
}

/**
 * Publish → visible through GetState, one event at a time on a consumer that keeps up.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string} tenantId
 * @param {{ seconds: number; maxSamples: number }} bounds
 */
export async function adoptionLatency(bed, tenantId, bounds) {
  const consumer = await bed.adoption.startConsumer(bed.nc);
  // Whatever the throughput phase left in the backlog is handled first, so it does not queue
  // ahead of the events being timed.
  await until(
    async () => {
      const info = await bed.jsm.consumers.info(bed.events.streamName, bed.events.consumerName);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    20_000,
    50,
  );
  const auth = { authorization: await bed.bearer(tenantId) };
  const latencies = [];
  let seen = (await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount;
  const stopAt = performance.now() + bounds.seconds * 1_000;
  for (let n = 0; performance.now() < stopAt && latencies.length < bounds.maxSamples; n += 1) {
    const t0 = performance.now();
    await bed.publisher.publish(journeyEvent(tenantId, n, new Date()));
    const visible = await until(
      async () => (await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount > seen,
      5_000,
      5,
    );
    if (!visible) break;
    latencies.push(performance.now() - t0);
    seen += 1;
  }
  await consumer.stop();
  return latencySummary(latencies);
}

/**
 * Baseline: publish → the no-op consumer's handler sees the event (JetStream end to end).
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string} tenantId
 * @param {{ seconds: number; maxSamples: number }} bounds
 */
export async function jetstreamLatency(bed, tenantId, bounds) {
  const prefix = `${bed.events.subjectPrefix}_lat`;
  const streamName = prefix.toUpperCase();
  bed.streams.push(streamName);
  await ensureEventStream(bed.jsm, { streamName, subjectPrefix: prefix, duplicateWindowMs: 60_000 });
  const publisher = createEventPublisher(bed.js, { subjectPrefix: prefix });
  /** @type {Map<string, () => void>} */
  const waiting = new Map();
  const consumer = await startDurableConsumer(bed.js, bed.jsm, {
    streamName,
    durableName: `${prefix}_noop`,
    subjectPrefix: prefix,
    handler: async (e) => waiting.get(e.id)?.(),
    ...silent,
  });
  const latencies = [];
  const stopAt = performance.now() + bounds.seconds * 1_000;
  for (let n = 0; performance.now() < stopAt && latencies.length < bounds.maxSamples; n += 1) {
    const e = journeyEvent(tenantId, n, new Date());
    /** @type {Promise<boolean>} */
    const seen = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      waiting.set(e.id, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    const t0 = performance.now();
    await publisher.publish(e);
    if (!(await seen)) break;
    latencies.push(performance.now() - t0);
    waiting.delete(e.id);
  }
  await consumer.stop();
  return latencySummary(latencies);
}
