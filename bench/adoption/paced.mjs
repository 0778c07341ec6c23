import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { testIdentity } from '@tap/testkit';
import { latencySummary, percentile, until } from './stats.mjs';

const DRAIN_BUDGET_MS = 60_000;

/**
 * The next message of `type` from the worker; rejects if the worker fails or exits first.
 * @param {Worker} worker @param {string} type
 * @returns {Promise<any>}
 */
function message(worker, type) {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (/** @type {any} */ m) => {
      if (m?.type !== type) return;
      done();
      resolve(m);
    };
    const onError = (/** @type {Error} */ error) => (done(), reject(error));
    const onExit = (/** @type {number} */ code) => (
      done(),
      reject(new Error(`paced client exited (${code}) before '${type}'`))
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

/**
 * Events published at a steady `rate` onto `tenants`, the consumer running: how many per
 * second it applied (all events, first publish → last applied) and publish → visible through
 * GetState for the `watched` tenants (every event of theirs). The publisher and the GetState
 * pollers run in a worker thread (paced-client.mjs), so they do not take the consumer's event
 * loop; the consumer and the gRPC service run here, as in the service's own process.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string[]} tenants
 * @param {string[]} watched a subset of tenants, polled through GetState
 * @param {{ rate: number; seconds: number; offset?: number; budgetMs?: number }} pace
 */
export async function pacedRun(bed, tenants, watched, pace) {
  const consumer = await bed.adoption.startConsumer(bed.nc);
  const worker = new Worker(new URL('./paced-client.mjs', import.meta.url), {
    workerData: {
      natsUrl: bed.urls.natsUrl,
      subjectPrefix: bed.events.subjectPrefix,
      adoptionAddress: bed.adoptionAddress,
      gatewayIdentity: await testIdentity('gateway'),
      tenants,
      watched: await Promise.all(
        watched.map(async (tenantId) => ({ tenantId, authorization: await bed.bearer(tenantId) })),
      ),
      pace: { rate: pace.rate, seconds: pace.seconds, offset: pace.offset ?? 0 },
    },
  });
  const health = watchProcess();
  try {
    await message(worker, 'ready');
    const appliedBefore = consumer.stats().applied;
    health.start();
    const started = performance.now();
    const publishedMessage = message(worker, 'published');
    worker.postMessage({ type: 'go' });
    const published = await publishedMessage;
    await until(
      async () => consumer.stats().applied - appliedBefore >= published.total,
      pace.budgetMs ?? DRAIN_BUDGET_MS,
      5,
    );
    const applied = consumer.stats().applied - appliedBefore;
    const seconds = (performance.now() - started) / 1_000;
    const resultMessage = message(worker, 'result');
    worker.postMessage({ type: 'drained' });
    const result = await resultMessage;
    const processHealth = health.stop();
    return {
      offeredPerSecond: published.total / published.seconds,
      events: applied,
      seconds,
      perSecond: applied / seconds,
      latency: latencySummary(result.latencies),
      // Timed events GetState never showed (left out of the latency: not seen within 5 s of the end).
      unseen: result.unseen,
      failedReads: result.failedReads,
      // The pollers' own load on the consumer's process.
      polls: result.polls,
      pollsPerSecond: result.pollsPerSecond,
      getState: latencySummary(result.pollMs),
      process: processHealth,
      batches: batchSummary(consumer.batchTimings()),
      consumerErrors: consumer.errorReports(),
    };
  } finally {
    health.stop();
    await worker.terminate();
    await consumer.stop();
  }
}

/**
 * The consumer's process (this thread) during a phase: event-loop delay (a stall delays every
 * batch and every GetState alike) and GC pauses, by kind.
 */
function watchProcess() {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  /** @type {{ kind: number; ms: number }[]} */
  const gcs = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = /** @type {{ detail?: { kind?: number } }} */ (/** @type {unknown} */ (entry)).detail;
      gcs.push({ kind: detail?.kind ?? 0, ms: entry.duration });
    }
  });
  let running = false;
  /** @type {any} */
  let result;
  return {
    start() {
      loop.enable();
      observer.observe({ entryTypes: ['gc'] });
      running = true;
    },
    stop() {
      if (!running) return result;
      running = false;
      loop.disable();
      observer.disconnect();
      // perf_hooks.constants: 1 minor (scavenge), 2 major (mark-sweep-compact), 4 incremental, 8 weak callbacks.
      const byKind = (/** @type {number} */ kind) => gcs.filter((g) => g.kind === kind).map((g) => g.ms);
      const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);
      const major = byKind(2);
      const minor = byKind(1);
      result = {
        loopDelayP50: loop.percentile(50) / 1e6,
        loopDelayP99: loop.percentile(99) / 1e6,
        loopDelayMax: loop.max / 1e6,
        gcCount: gcs.length,
        gcTotalMs: sum(gcs.map((g) => g.ms)),
        gcMaxMs: Math.max(0, ...gcs.map((g) => g.ms)),
        majorGcs: major.length,
        majorGcMaxMs: Math.max(0, ...major),
        minorGcs: minor.length,
        minorGcMaxMs: Math.max(0, ...minor),
      };
      return result;
    },
  };
}

/**
 * The phase's batches from the consumer's timings: p50/p99/max per stage, and the slowest three
 * whole (where a stall's time went).
 * @param {readonly import('@tap/adoption').BatchTiming[]} batches
 */
function batchSummary(batches) {
  /** @type {Record<string, { p50: number; p99: number; max: number }>} */
  const stages = {};
  const keys = /** @type {const} */ ([
    'messages',
    'tenants',
    'waitedMs',
    'handlerMs',
    'loadMs',
    'writeMs',
    'inProcessMs',
    'scheduleMs',
    'existingMs',
    'rawLogMs',
    'settleMs',
    'totalMs',
  ]);
  for (const key of keys) {
    const sorted = batches.map((b) => b[key]).sort((a, b) => a - b);
    stages[key] = {
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? NaN,
    };
  }
  // By how long they held their events (waited + handled): a stall before a batch shows as its wait.
  const slowest = batches
    .map((b, index) => ({ index, ...b }))
    .sort((a, b) => b.waitedMs + b.totalMs - (a.waitedMs + a.totalMs))
    .slice(0, 3);
  // The longest time the consumer had no batch in hand: a stall before the pull delivered more.
  let idleMs = 0;
  for (let i = 1; i < batches.length; i += 1) {
    const before = batches[i - 1];
    const batch = batches[i];
    if (before && batch) idleMs = Math.max(idleMs, batch.startedAt - (before.startedAt + before.totalMs));
  }
  return { count: batches.length, stages, slowest, idleMs };
}
