import { randomUUID } from 'node:crypto';
import { EMPTY_SUMMARY, foldFacts } from '../../services/adoption/dist/domain/index.js';
import { summaryPartsRepository } from '../../services/adoption/dist/store/summary-parts-repository.js';

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
