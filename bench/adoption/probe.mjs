#!/usr/bin/env node
/**
 * Where one batch's time goes (issue 13 profiling): for a busy tenant with PRIOR events of
 * history, times each step the consumer takes for a batch of BATCH events, on the real store.
 *   node bench/adoption/probe.mjs            (PROBE_PRIOR=100,100000 PROBE_BATCH=500)
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { BSON, MongoClient } from 'mongodb';
import { startInfrastructure } from '@tap/testkit';
import { EMPTY_SUMMARY, foldFacts, summaryFacts, toFact } from '../../services/adoption/dist/domain/index.js';
import { recomputeOnWrite } from '../../services/adoption/dist/recompute-on-write.js';
import { toAggregate } from '../../services/adoption/dist/store/aggregate-document.js';
import { UNSEEN_TIER } from '../../services/adoption/dist/tier.js';
import { journeyEvent } from './journey.mjs';

const DAY = 86_400_000;
const PRIORS = (process.env['PROBE_PRIOR'] ?? '100,100000').split(',').map(Number);
const BATCH = Number(process.env['PROBE_BATCH'] ?? 500);
const ROUNDS = Number(process.env['PROBE_ROUNDS'] ?? 5);

function history(tenantId, prior, now) {
  let summary = EMPTY_SUMMARY;
  for (let from = 0; from < prior; from += 10_000) {
    const chunk = Array.from({ length: Math.min(10_000, prior - from) }, (_, i) => {
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
  return summary;
}

const time = async (sink, name, fn) => {
  const t0 = performance.now();
  const out = await fn();
  sink[name] = (sink[name] ?? 0) + (performance.now() - t0);
  return out;
};

const infra = await startInfrastructure();
const mongo = new MongoClient(infra.mongoUrl);
const db = mongo.db(`probe_${process.pid}`);
try {
  const aggregates = db.collection('aggregates');
  const events = db.collection('events');
  await events.createIndex({ tenantId: 1, occurredAt: 1 });
  for (const prior of PRIORS) {
    const tenantId = randomUUID();
    const now = new Date();
    const summary0 = history(tenantId, prior, now);
    await aggregates.insertOne({
      _id: tenantId,
      summary: summary0,
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
    const t = {};
    let n0 = 0;
    let bytes = 0;
    let factsKept = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const start = Date.now() - DAY;
      const facts = Array.from({ length: BATCH }, (_, i) =>
        toFact(journeyEvent(tenantId, n0 + i, new Date(start + (n0 + i) * 1_000))),
      );
      n0 += BATCH;
      const doc = await time(t, 'findOne', () => aggregates.findOne({ _id: tenantId }));
      const aggregate = await time(t, 'toAggregate', () => toAggregate(doc));
      await time(t, 'dedupe existing()', () =>
        events.find({ _id: { $in: facts.map((f) => f.id) }, tenantId }, { projection: { _id: 1 } }).toArray(),
      );
      const folded = await time(t, 'foldFacts', () => foldFacts(aggregate.summary, facts, now));
      const kept = await time(t, 'summaryFacts', () => summaryFacts(folded));
      factsKept = kept.length;
      const { derived } = await time(t, 'recomputeOnWrite', () =>
        recomputeOnWrite({
          aggregate,
          facts: kept,
          manualCompletions: [],
          tier: UNSEEN_TIER,
          version: aggregate.version + 1,
          now,
          rescanMs: 900_000,
        }),
      );
      bytes = BSON.calculateObjectSize({ summary: folded });
      await time(t, 'updateOne summary', () =>
        aggregates.updateOne(
          { _id: tenantId, version: aggregate.version },
          {
            $set: { summary: folded, lastBand: derived.lastBand, signals: derived.signals },
            $inc: { version: 1 },
          },
        ),
      );
      await time(t, `insertMany ${BATCH} raw`, () =>
        events.insertMany(
          facts.map((f) => ({ _id: f.id, tenantId, ...f, receivedAt: now })),
          { ordered: false },
        ),
      );
      await time(t, 'insertOne raw chunk doc', () =>
        events.insertOne({ _id: `chunk-${tenantId}-${round}`, tenantId, facts, receivedAt: now }),
      );
    }
    const per = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, +(v / ROUNDS).toFixed(1)]));
    console.log(
      JSON.stringify(
        { prior, batch: BATCH, summaryBytes: bytes, summarySlots: 0, factsKept, msPerBatch: per },
        null,
        1,
      ),
    );
  }
} finally {
  await db.dropDatabase();
  await mongo.close();
  await infra.stop();
}
