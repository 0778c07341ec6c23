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
/** How long each poll's GetState took (part of every publish → visible figure). */
const pollMs = /** @type {number[]} */ ([]);
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
 * each new event of the tenant was seen. It polls every 50 ms only while an event it was sent is
 * not seen yet, and sleeps otherwise, so watching many quiet tenants (the 1,000-tenant phase)
 * costs GetState calls in proportion to the events timed, not to the tenants watched: the pollers
 * call the consumer's own process and must not become its load. After a wake the first poll
 * comes at a random point of the period, as a steady poll's would.
 * @param {() => Promise<number>} count the tenant's applied events, read through GetState
 * @param {() => number} expected how many events of the tenant were published so far
 */
async function watcher(count, expected) {
  // The first read retries too: under a backlog FerretDB can keep a read past its deadline.
  let base = -1;
  for (let tries = 0; base < 0 && tries < 10; tries += 1) base = await count().catch(() => -1);
  if (base < 0) throw new Error('GetState kept failing');
  /** @type {number[]} */
  const seenAt = [];
  let stopped = false;
  let failures = 0;
  let polls = 0;
  let wake = () => {};
  const idle = () =>
    new Promise((resolve) => {
      wake = () => resolve(undefined);
    });
  const loop = (async () => {
    while (!stopped) {
      if (seenAt.length >= expected()) {
        await idle();
        await sleep(Math.random() * POLL_MS);
        continue;
      }
      polls += 1;
      const asked = performance.now();
      // A read past its deadline under load is a miss, not the end of the watch.
      const applied = await count().then(
        (n) => n - base,
        () => ((failures += 1), -1),
      );
      const at = performance.now();
      pollMs.push(at - asked);
      while (seenAt.length < applied) seenAt.push(at);
      await sleep(POLL_MS);
    }
  })();
  return {
    visible: () => seenAt.length,
    failures: () => failures,
    polls: () => polls,
    /** Called when an event of the tenant was published. */
    wake: () => wake(),
    /** @param {number} k */
    at: (k) => seenAt[k],
    async stop() {
      stopped = true;
      wake();
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
/** @type {Map<string, number[]>} when each event of a tenant was sent, in order */
const sent = new Map(data.tenants.map((t) => [t, []]));
const watchers = new Map();
for (const { tenantId, authorization } of data.watched) {
  const count = async () => (await unaryCall(client, 'GetState', {}, { authorization })).appliedEventCount;
  const expected = () => sent.get(tenantId)?.length ?? 0;
  watchers.set(tenantId, await watcher(count, expected));
}
const go = next('go');
port.postMessage({ type: 'ready' });
await go;

// Publishes `rate` events per second for `seconds`, round robin over the tenants (each tenant's
// n-th event a different kind), in ticks of 10 ms, the publishes of a tick concurrent.
const { rate, seconds, offset = 0 } = data.pace;
const total = Math.round(rate * seconds);
const started = performance.now();
const dayAgo = Date.now() - 86_400_000;
let sentCount = 0;
while (sentCount < total) {
  const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * rate) + 1);
  const tick = [];
  const touched = new Set();
  const at = performance.now();
  for (; sentCount < due; sentCount += 1) {
    const tenantId = data.tenants[sentCount % data.tenants.length] ?? '';
    const n = offset + Math.floor(sentCount / data.tenants.length);
    sent.get(tenantId)?.push(at);
    touched.add(tenantId);
    tick.push(publisher.publish(journeyEvent(tenantId, n, new Date(dayAgo + n * 1_000))));
  }
  await Promise.all(tick);
  for (const t of touched) watchers.get(t)?.wake();
  await sleep(TICK_MS);
}
const drained = next('drained');
port.postMessage({ type: 'published', total, seconds: (performance.now() - started) / 1_000 });
await drained;

const expected = (/** @type {string} */ t) => sent.get(t)?.length ?? 0;
await until(async () => [...watchers].every(([t, w]) => w.visible() >= expected(t)), 5_000, 10);
const watchSeconds = (performance.now() - started) / 1_000;
const latencies = [];
let failedReads = 0;
let polls = 0;
// Timed events GetState never showed within the wait: counted, since leaving them out would flatter the p99.
let unseen = 0;
for (const [t, w] of watchers) {
  await w.stop();
  failedReads += w.failures();
  polls += w.polls();
  unseen += Math.max(0, expected(t) - w.visible());
  (sent.get(t) ?? []).forEach((sentAt, k) => {
    const seenAt = w.at(k);
    if (seenAt !== undefined) latencies.push(seenAt - sentAt);
  });
}
client.close();
await nc.drain();
port.postMessage({
  type: 'result',
  latencies,
  failedReads,
  unseen,
  polls,
  pollsPerSecond: polls / watchSeconds,
  pollMs,
});
