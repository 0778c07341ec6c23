import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { unaryCall } from '@tap/grpc-kit';
import { journeyEvent } from './journey.mjs';
import { latencySummary, until } from './stats.mjs';

const TICK_MS = 10;
const POLL_MS = 50;
const DRAIN_BUDGET_MS = 60_000;

/**
 * Watches one tenant through GetState (appliedEventCount), as a client would: returns a
 * function giving, for the k-th new event of the tenant, when it first became visible.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string} tenantId
 */
async function watcher(bed, tenantId) {
  const auth = { authorization: await bed.bearer(tenantId) };
  const count = async () => (await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount;
  // The first read retries too: under a backlog FerretDB can keep a read past its deadline.
  let base = -1;
  for (let tries = 0; base < 0 && tries < 10; tries += 1) base = await count().catch(() => -1);
  if (base < 0) throw new Error(`GetState of ${tenantId} kept failing`);
  /** @type {number[]} first time each count was seen */
  const seenAt = [];
  let stopped = false;
  let failures = 0;
  const loop = (async () => {
    while (!stopped) {
      // A read past its deadline under load is a miss, not the end of the watch.
      const applied = await count().then(
        (n) => n - base,
        () => ((failures += 1), -1),
      );
      const at = performance.now();
      while (seenAt.length < applied) seenAt.push(at);
      await sleep(POLL_MS);
    }
  })();
  return {
    visible: () => seenAt.length,
    failures: () => failures,
    /** @param {number} k */
    at: (k) => seenAt[k],
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * Publishes `rate` events per second for `seconds`, spread over `tenants` round robin (each
 * tenant's n-th event a different kind), in ticks of 10 ms, publishes of a tick concurrent.
 * Returns, per tenant, the time each of its events was sent (in order).
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string[]} tenants
 * @param {{ rate: number; seconds: number; offset?: number }} pace
 */
async function publishPaced(bed, tenants, pace) {
  /** @type {Map<string, number[]>} */
  const sent = new Map(tenants.map((t) => [t, []]));
  const total = Math.round(pace.rate * pace.seconds);
  const started = performance.now();
  const dayAgo = Date.now() - 86_400_000;
  let next = 0;
  while (next < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * pace.rate) + 1);
    const tick = [];
    const at = performance.now();
    for (; next < due; next += 1) {
      const tenantId = tenants[next % tenants.length] ?? '';
      const n = (pace.offset ?? 0) + Math.floor(next / tenants.length);
      sent.get(tenantId)?.push(at);
      tick.push(bed.publisher.publish(journeyEvent(tenantId, n, new Date(dayAgo + n * 1_000))));
    }
    await Promise.all(tick);
    await sleep(TICK_MS);
  }
  return { sent, total, seconds: (performance.now() - started) / 1_000 };
}

/**
 * Events published at a steady `rate` onto `tenants`, the consumer running: how many per
 * second it applied (all events, first publish → last applied) and publish → visible through
 * GetState for the `watched` tenants (every event of theirs).
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string[]} tenants
 * @param {string[]} watched a subset of tenants, polled through GetState
 * @param {{ rate: number; seconds: number; offset?: number; budgetMs?: number }} pace
 */
export async function pacedRun(bed, tenants, watched, pace) {
  const consumer = await bed.adoption.startConsumer(bed.nc);
  const watchers = new Map();
  for (const t of watched) watchers.set(t, await watcher(bed, t));
  const appliedBefore = consumer.stats().applied;
  const started = performance.now();
  const published = await publishPaced(bed, tenants, pace);
  await until(
    async () => consumer.stats().applied - appliedBefore >= published.total,
    pace.budgetMs ?? DRAIN_BUDGET_MS,
    5,
  );
  const applied = consumer.stats().applied - appliedBefore;
  const seconds = (performance.now() - started) / 1_000;
  const expected = (/** @type {string} */ t) => published.sent.get(t)?.length ?? 0;
  await until(async () => [...watchers].every(([t, w]) => w.visible() >= expected(t)), 5_000, 10);
  const latencies = [];
  let failedReads = 0;
  for (const [t, w] of watchers) {
    await w.stop();
    failedReads += w.failures();
    const times = published.sent.get(t) ?? [];
    times.forEach((sentAt, k) => {
      const seenAt = w.at(k);
      if (seenAt !== undefined) latencies.push(seenAt - sentAt);
    });
  }
  await consumer.stop();
  return {
    offeredPerSecond: published.total / published.seconds,
    events: applied,
    seconds,
    perSecond: applied / seconds,
    latency: latencySummary(latencies),
    failedReads,
  };
}
