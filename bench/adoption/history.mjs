import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { EMPTY_SUMMARY, foldFacts } from '../../services/adoption/dist/domain/index.js';
import { journeyEvent } from './journey.mjs';
import { until } from './stats.mjs';

const DAY = 86_400_000;
const FOLD_CHUNK = 10_000;

/**
 * A tenant whose history is loaded straight into the store: `prior` facts (updates of 300
 * products over the last 90 days, as a busy supplier's) folded into its summary in process and
 * written as its aggregate, as the consumer would have left it.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {number} prior
 */
async function tenantWithHistory(bed, prior) {
  const tenantId = randomUUID();
  const now = new Date();
  let summary = EMPTY_SUMMARY;
  for (let from = 0; from < prior; from += FOLD_CHUNK) {
    const chunk = Array.from({ length: Math.min(FOLD_CHUNK, prior - from) }, (_, i) => {
      const n = from + i;
      return {
        id: `h-${tenantId}-${n}`,
        type: n < 300 ? 'product.created' : 'product.updated',
        occurredAt: new Date(now.getTime() - 90 * DAY + Math.floor((n / prior) * 89 * DAY)).toISOString(),
        subject: { productId: `p-${n % 300}` },
        data: {},
      };
    });
    summary = foldFacts(summary, chunk, now);
  }
  /** @type {import('mongodb').Collection<{ _id: string } & Record<string, unknown>>} */
  const aggregates = bed.db.collection('aggregates');
  await aggregates.insertOne({
    _id: tenantId,
    summary,
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
 * Events per second the adoption consumer applies for ONE busy tenant with `prior` events of
 * history: `events` new events are stored first, then the consumer drains them.
 * @param {Awaited<ReturnType<typeof import('./bed.mjs').openBed>>} bed
 * @param {number} prior
 * @param {number} events
 * @param {number} budgetMs
 */
export async function busyTenantThroughput(bed, prior, events, budgetMs) {
  const tenantId = await tenantWithHistory(bed, prior);
  const start = new Date(Date.now() - DAY);
  for (let n = 0; n < events; n += 1) {
    await bed.publisher.publish(journeyEvent(tenantId, n, new Date(start.getTime() + n * 1_000)));
  }
  const consumer = await bed.adoption.startConsumer(bed.nc);
  const started = performance.now();
  await until(async () => consumer.stats().applied >= events, budgetMs, 2);
  const seconds = (performance.now() - started) / 1_000;
  const applied = consumer.stats().applied;
  await consumer.stop();
  return { prior, events: applied, seconds, perSecond: applied / seconds };
}
