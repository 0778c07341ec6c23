import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { testIdentity } from '@tap/testkit';
import { latencySummary, until } from './stats.mjs';

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
  try {
    await message(worker, 'ready');
    const appliedBefore = consumer.stats().applied;
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
    return {
      offeredPerSecond: published.total / published.seconds,
      events: applied,
      seconds,
      perSecond: applied / seconds,
      latency: latencySummary(result.latencies),
      failedReads: result.failedReads,
    };
  } finally {
    await worker.terminate();
    await consumer.stop();
  }
}
