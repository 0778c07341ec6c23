/**
 * The client side of a paced run, in a worker thread of its own (paced.mjs starts it): the
 * publisher and the GetState pollers, so their CPU is not taken from the consumer's event loop
 * and the figure measures the service. Talks to paced.mjs by messages:
 *   → { type: 'ready' }           watchers have their base count
 *   ← { type: 'go' }
 *   → { type: 'published', total, seconds }
 *   ← { type: 'drained' }         the consumer applied them (or its budget ran out)
 *   → { type: 'result', latencies, failedReads }
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { contracts } from '@tap/contracts';
import { createEventPublisher } from '@tap/events';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { journeyEvent } from './journey.mjs';
import { until } from './stats.mjs';

const TICK_MS = 10;
const POLL_MS = 50;

/**
 * @typedef {{ natsUrl: string; subjectPrefix: string; adoptionAddress: string;
 *   gatewayIdentity: import('@tap/testkit').IssuedIdentity;
 *   tenants: string[]; watched: { tenantId: string; authorization: string }[];
 *   pace: { rate: number; seconds: number; offset?: number } }} PacedClientData
 */
const data = /** @type {PacedClientData} */ (workerData);
const port = parentPort;
if (port === null) throw new Error('paced-client.mjs runs as a worker thread');

/** @type {(type: string) => Promise<any>} */
const next = (type) =>
  new Promise((resolve) => {
    const on = (/** @type {any} */ message) => {
      if (message?.type !== type) return;
      port.off('message', on);
      resolve(message);
    };
    port.on('message', on);
  });

/**
 * Watches one tenant through GetState (appliedEventCount), as a client would: the first time
 * each new event of the tenant was seen.
 * @param {() => Promise<number>} count the tenant's applied events, read through GetState
 */
async function watcher(count) {
  // The first read retries too: under a backlog FerretDB can keep a read past its deadline.
  let base = -1;
  for (let tries = 0; base < 0 && tries < 10; tries += 1) base = await count().catch(() => -1);
  if (base < 0) throw new Error('GetState kept failing');
  /** @type {number[]} */
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

const nc = await connect({ servers: data.natsUrl, name: 'paced-client' });
const publisher = createEventPublisher(jetstream(nc), { subjectPrefix: data.subjectPrefix });
const client = createClient(
  contracts().adoption.AdoptionService,
  data.adoptionAddress,
  // The bed's test PKI lives in the main thread: its certificate, not a new authority's.
  tlsFromPem(data.gatewayIdentity),
);
const watchers = new Map();
for (const { tenantId, authorization } of data.watched) {
  const count = async () => (await unaryCall(client, 'GetState', {}, { authorization })).appliedEventCount;
  watchers.set(tenantId, await watcher(count));
}
const go = next('go');
port.postMessage({ type: 'ready' });
await go;

// Publishes `rate` events per second for `seconds`, round robin over the tenants (each tenant's
// n-th event a different kind), in ticks of 10 ms, the publishes of a tick concurrent.
const { rate, seconds, offset = 0 } = data.pace;
/** @type {Map<string, number[]>} when each event of a tenant was sent, in order */
const sent = new Map(data.tenants.map((t) => [t, []]));
const total = Math.round(rate * seconds);
const started = performance.now();
const dayAgo = Date.now() - 86_400_000;
let sentCount = 0;
while (sentCount < total) {
  const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * rate) + 1);
  const tick = [];
  const at = performance.now();
  for (; sentCount < due; sentCount += 1) {
    const tenantId = data.tenants[sentCount % data.tenants.length] ?? '';
    const n = offset + Math.floor(sentCount / data.tenants.length);
    sent.get(tenantId)?.push(at);
    tick.push(publisher.publish(journeyEvent(tenantId, n, new Date(dayAgo + n * 1_000))));
  }
  await Promise.all(tick);
  await sleep(TICK_MS);
}
const drained = next('drained');
port.postMessage({ type: 'published', total, seconds: (performance.now() - started) / 1_000 });
await drained;

const expected = (/** @type {string} */ t) => sent.get(t)?.length ?? 0;
await until(async () => [...watchers].every(([t, w]) => w.visible() >= expected(t)), 5_000, 10);
const latencies = [];
let failedReads = 0;
for (const [t, w] of watchers) {
  await w.stop();
  failedReads += w.failures();
  (sent.get(t) ?? []).forEach((sentAt, k) => {
    const seenAt = w.at(k);
    if (seenAt !== undefined) latencies.push(seenAt - sentAt);
  });
}
client.close();
await nc.drain();
port.postMessage({ type: 'result', latencies, failedReads });
