import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { EMPTY_SUMMARY, foldFacts } from '../../services/adoption/dist/domain/index.js';
import { summaryPartsRepository } from '../../services/adoption/dist/store/summary-parts-repository.js';
import { journeyEvent } from './journey.mjs';
import { until } from './stats.mjs';

const DAY = 86_400_000;
const CHUNK = 10_000;

/**
 * The n-th of `prior` history events: a busy supplier creating 300 products, then updating
 * them, spread over the 90 days before `now`.
 * @param {string} tenantId @param {number} n @param {number} prior @param {Date} now
 */
function historyFact(tenantId, n, prior, now) {
  return {
    id: `h-${tenantId}-${n}`,
    type: n < 300 ? 'product.created' : 'product.updated',
    occurredAt: new Date(now.getTime() - 90 * DAY + Math.floor((n / prior) * 89 * DAY)).toISOString(),
    subject: { productId: `p-${n % 300}` },
    data: {},
  };
}

/**
 * A tenant whose history is loaded in bulk, as the consumer would have left it: `prior` raw
 * events inserted into the `events` log (insertMany, 10,000 at a time), the same facts folded
 * into the summary in process (the consumer's pure fold), stored as one base part, and the
 * aggregate document naming it. Returns the tenant id (`tenantId`, or a new one).
 * @param {import('mongodb').Db} db
 * @param {number} prior
 * @param {string} [tenantId]
 * @param {import('mongodb').Db} [eventsDb] where the raw events go (default: `db`)
 */
export async function loadHistory(db, prior, tenantId = randomUUID(), eventsDb = db) {
  const now = new Date();
  /** @type {import('mongodb').Collection<any>} */
  const events = eventsDb.collection('events');
  let summary = EMPTY_SUMMARY;
  for (let from = 0; from < prior; from += CHUNK) {
    const chunk = Array.from({ length: Math.min(CHUNK, prior - from) }, (_, i) =>
      historyFact(tenantId, from + i, prior, now),
    );
    summary = foldFacts(summary, chunk, now);
    await events.insertMany(
      chunk.map((f) => ({ _id: f.id, tenantId, ...f, receivedAt: now })),
      { ordered: false },
    );
  }
  const base = await summaryPartsRepository(db).insert(tenantId, summary.slots, now);
  /** @type {import('mongodb').Collection<any>} */
  const aggregates = db.collection('aggregates');
  await aggregates.insertOne({
    _id: tenantId,
    summary: { ...summary, slots: [] },
    summaryParts: [base],
    recentEventIds: [],
    lastSeq: 0,
    manualCompletions: [],
    version: 1,
    lastBand: null,
    tier: null,
    signals: [],
    driftRevision: 1,
    scheduledCheck: null,
    outbox: [],
    updatedAt: now,
  });
  return tenantId;
}

/**
 * Events per second the adoption consumer applies for one tenant from a backlog: `events` new
 * events are stored first, then the consumer drains them.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {string} tenantId
 * @param {number} events
 * @param {number} budgetMs
 */
export async function busyTenantDrain(bed, tenantId, events, budgetMs) {
  const start = new Date(Date.now() - DAY);
  for (let n = 0; n < events; n += 1) {
    await bed.publisher.publish(journeyEvent(tenantId, n, new Date(start.getTime() + n * 1_000)));
  }
  const consumer = await bed.adoption.startConsumer(bed.nc);
  const before = consumer.stats().applied;
  const started = performance.now();
  await until(async () => consumer.stats().applied - before > 0, budgetMs, 1);
  const firstBatchMs = performance.now() - started;
  await until(async () => consumer.stats().applied - before >= events, budgetMs, 2);
  const seconds = (performance.now() - started) / 1_000;
  const applied = consumer.stats().applied - before;
  await consumer.stop();
  return { events: applied, seconds, perSecond: applied / seconds, firstBatchMs };
}
