import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { latencySummary } from '../stats.mjs';

/** Publishes in flight at once while loading a backlog (JetStream acks each one). */
const PUBLISH_WINDOW = 512;
/** Ticks of the paced publisher: each tick sends what is due, concurrently. */
const TICK_MS = 10;
/** How long events published in a paced phase may take to show before they count as unseen. */
const SETTLE_MS = 10_000;
/** State reads before the timed ones (see singleReads). */
const STATE_WARM_UP_READS = 50;

/**
 * The gateway's public reads of one tenant, as a client makes them.
 * @param {number} port
 */
export function gatewayReader(port) {
  /**
   * @param {string} path @param {string} bearer
   * @returns {Promise<any>} the answer's `data`
   */
  const get = async (path, bearer) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      headers: { authorization: bearer },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return /** @type {{ data: any }} */ (await response.json()).data;
  };
  return {
    get,
    /** The PRODUCTS cell's count in `GET /tenant/adoption/coverage`. @param {string} bearer */
    async products(bearer) {
      const data = await get('/tenant/adoption/coverage', bearer);
      const cell = /** @type {{ key: string; count: number }[]} */ (data.cells).find(
        (c) => c.key === 'PRODUCTS',
      );
      if (!cell) throw new Error('coverage has no PRODUCTS cell');
      return cell.count;
    },
  };
}

/**
 * A `product.created` event of a distinct product, as the products service publishes it.
 * @param {string} tenantId @param {number} n the product's number (distinct per tenant)
 * @returns {import('@tap/contracts').ProductEvent}
 */
export function productCreated(tenantId, n) {
  return {
    id: randomUUID(),
    type: 'product.created',
    tenantId,
    occurredAt: new Date().toISOString(),
    subject: { productId: `bench-product-${n}` },
    data: {},
  };
}

/**
 * One event's trip alone, publish → visible in coverage (median of `samples`, one at a time,
 * coverage read every 5 ms): what a drain's time holds besides the backlog's own rate. Each
 * adds a product: returns the count after them too.
 * @param {{ publish: (e: import('@tap/contracts').ProductEvent) => Promise<unknown> }} stack
 * @param {ReturnType<typeof gatewayReader>} reader
 * @param {{ tenantId: string; bearer: () => string }} tenant
 * @param {number} from products so far @param {number} samples
 */
export async function singleTrip(stack, reader, tenant, from, samples) {
  /** @type {number[]} */
  const trips = [];
  for (let n = from; n < from + samples; n += 1) {
    const sent = performance.now();
    await stack.publish(productCreated(tenant.tenantId, n));
    while ((await reader.products(tenant.bearer()).catch(() => n)) <= n && performance.now() - sent < 10_000)
      await sleep(5);
    trips.push(performance.now() - sent);
  }
  return { tripMs: latencySummary(trips).p50, count: from + samples };
}

/**
 * Loads products `from`..`to` - 1 onto the tenant as fast as JetStream takes them and measures
 * how fast the stack applies them: from the first publish until coverage shows `to` products.
 * Coverage is polled more often as the expected end nears (so a 1,000-event drain is timed to
 * ~10 ms) and rarely before (a read must not become the load). Gives up after `budgetMs`.
 * @param {{ publish: (e: import('@tap/contracts').ProductEvent) => Promise<unknown> }} stack
 * @param {ReturnType<typeof gatewayReader>} reader
 * @param {{ tenantId: string; bearer: () => string }} tenant
 * @param {{ from: number; to: number; budgetMs: number; expectedPerSecond: number; tripMs: number }} load
 */
export async function drain(stack, reader, tenant, load) {
  const events = load.to - load.from;
  const started = performance.now();
  const deadline = started + load.budgetMs;
  let published = 0;
  let publishError = /** @type {unknown} */ (undefined);
  const publishing = (async () => {
    const inFlight = new Set();
    for (
      let n = load.from;
      n < load.to && performance.now() < deadline && publishError === undefined;
      n += 1
    ) {
      // Each publish handles its own failure: the first one stops the load and is rethrown below.
      const p = stack
        .publish(productCreated(tenant.tenantId, n))
        .then(
          () => void (published += 1),
          (error) => void (publishError ??= error),
        )
        .then(() => void inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= PUBLISH_WINDOW) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    return performance.now();
  })();
  let seen = load.from;
  let reads = 0;
  while (seen < load.to && performance.now() < deadline && publishError === undefined) {
    const elapsed = (performance.now() - started) / 1_000;
    const rate = Math.max(load.expectedPerSecond, (seen - load.from) / Math.max(elapsed, 0.001));
    const remainingMs = ((load.to - seen) / rate) * 1_000;
    await sleep(Math.min(250, Math.max(10, remainingMs / 20)));
    seen = await reader.products(tenant.bearer()).catch(() => seen);
    reads += 1;
  }
  const finished = performance.now();
  const publishedAt = await publishing;
  if (publishError !== undefined) throw publishError;
  const seconds = (finished - started) / 1_000;
  const drainedSeconds = seconds - load.tripMs / 1_000;
  return {
    events,
    budgetSeconds: load.budgetMs / 1_000,
    applied: seen - load.from,
    complete: seen >= load.to,
    seconds,
    // The backlog's rate: one event's trip through the pipeline (publish → visible, alone) would
    // otherwise be a large share of a 1,000-event drain's time and none of a 400,000-event one's.
    perSecond: (seen - load.from) / (drainedSeconds > 0 ? drainedSeconds : seconds),
    endToEndPerSecond: (seen - load.from) / seconds,
    tripMs: load.tripMs,
    publishedPerSecond: published / ((publishedAt - started) / 1_000),
    coverageReads: reads,
  };
}

/**
 * Publishes new distinct products at `rate` per second for `seconds` while one client polls
 * coverage every `pollMs`: each event's publish → the first read whose PRODUCTS count includes
 * it (the n-th event published is seen when the count first reaches base + n). Events not seen
 * within 10 s of the last publish are counted, not left out.
 * @param {{ publish: (e: import('@tap/contracts').ProductEvent) => Promise<unknown> }} stack
 * @param {ReturnType<typeof gatewayReader>} reader
 * @param {{ tenantId: string; bearer: () => string }} tenant
 * @param {{ from: number; rate: number; seconds: number; pollMs: number }} pace
 */
export async function paced(stack, reader, tenant, pace) {
  const total = Math.round(pace.rate * pace.seconds);
  /** @type {number[]} */
  const sentAt = [];
  /** @type {number[]} */
  const seenAt = [];
  let stop = false;
  let failedReads = 0;
  let failedPublishes = 0;
  const base = pace.from;
  const polling = (async () => {
    while (!stop) {
      const asked = performance.now();
      const count = await reader.products(tenant.bearer()).catch(() => ((failedReads += 1), -1));
      const at = performance.now();
      // Only events already sent can be seen: a count past them is an earlier event's.
      while (count >= 0 && seenAt.length < Math.min(count - base, sentAt.length)) seenAt.push(at);
      await sleep(Math.max(0, pace.pollMs - (at - asked)));
    }
  })();
  const started = performance.now();
  let sent = 0;
  // Acks are not awaited tick by tick: a slow ack must not slow the offered rate.
  const acks = [];
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * pace.rate) + 1);
    for (; sent < due; sent += 1) {
      sentAt.push(performance.now());
      acks.push(
        stack.publish(productCreated(tenant.tenantId, base + sent)).catch(() => void (failedPublishes += 1)),
      );
    }
    await sleep(TICK_MS);
  }
  const publishSeconds = (performance.now() - started) / 1_000;
  await Promise.all(acks);
  const settleBy = performance.now() + SETTLE_MS;
  while (seenAt.length < total && performance.now() < settleBy) await sleep(20);
  stop = true;
  await polling;
  const latencies = seenAt.map((at, k) => at - (sentAt[k] ?? at));
  return {
    events: total,
    offeredPerSecond: total / publishSeconds,
    latency: latencySummary(latencies),
    unseen: total - seenAt.length,
    failedReads,
    failedPublishes,
  };
}

/**
 * Waits until coverage shows `count` products or `budgetMs` passes (a paced phase's backlog
 * applied, so the next phase starts quiet); returns the last count read.
 * @param {ReturnType<typeof gatewayReader>} reader @param {string} bearer
 * @param {number} count @param {number} budgetMs
 */
export async function settle(reader, bearer, count, budgetMs) {
  const deadline = performance.now() + budgetMs;
  let seen = -1;
  while (performance.now() < deadline) {
    seen = await reader.products(bearer).catch(() => seen);
    if (seen >= count) break;
    await sleep(200);
  }
  return seen;
}

/**
 * `reads` single `GET /tenant/adoption/state` one after another (no concurrency): p50/p99 ms.
 * @param {ReturnType<typeof gatewayReader>} reader @param {string} bearer @param {number} reads
 */
export async function singleReads(reader, bearer, reads) {
  /** @type {number[]} */
  const ms = [];
  // Untimed first reads: the first size's figure would otherwise include the read path's warm-up
  // (compilation) that the later sizes do not pay, and the sizes would not compare.
  for (let i = 0; i < STATE_WARM_UP_READS; i += 1) await reader.get('/tenant/adoption/state', bearer);
  for (let i = 0; i < reads; i += 1) {
    const asked = performance.now();
    await reader.get('/tenant/adoption/state', bearer);
    ms.push(performance.now() - asked);
  }
  return latencySummary(ms);
}
