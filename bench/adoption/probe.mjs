#!/usr/bin/env node
/**
 * Where one batch's time goes (issue 13 profiling): a busy tenant with PROBE_PRIOR events of
 * history takes PROBE_ROUNDS groups of PROBE_BATCH journey events through the real use case and
 * store (ingestProductEvents over aggregatesRepository and the raw log, no NATS), each store
 * call timed; "in process" is the rest (decode, dedupe, fold, recompute).
 *   node bench/adoption/probe.mjs            (PROBE_PRIOR=100,100000 PROBE_BATCH=500)
 * With PROBE_TENANTS=N it first takes N tenants through the consumer's batch handler, one
 * event each a batch, 75 tenants a batch (PROBE_MANY_BATCH), twice (see manyTenants).
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { BSON, MongoClient } from 'mongodb';
import { startInfrastructure } from '@tap/testkit';
import { ingestProductEvents } from '../../services/adoption/dist/operations/ingest-product-events.js';
import { productBatchHandler } from '../../services/adoption/dist/events/batch-handler.js';
import { aggregatesRepository } from '../../services/adoption/dist/store/aggregates-repository.js';
import { itemMarkersRepository } from '../../services/adoption/dist/store/item-markers-repository.js';
import { rawEventsRepository } from '../../services/adoption/dist/store/raw-events-repository.js';
import { createTenantWriteLock } from '../../services/adoption/dist/store/tenant-write-lock.js';
import { driftRepository } from '../../services/adoption/dist/store/drift-repository.js';
import { ensureAdoptionIndexes } from '../../services/adoption/dist/store/indexes.js';
import { summaryPartsRepository } from '../../services/adoption/dist/store/summary-parts-repository.js';
import { lastWrittenAggregates } from '../../services/adoption/dist/store/last-written-aggregates.js';
import { loadHistory } from './history.mjs';
import { journeyEvent } from './journey.mjs';

const DAY = 86_400_000;
const PRIORS = (process.env['PROBE_PRIOR'] ?? '100,100000').split(',').map(Number);
const BATCH = Number(process.env['PROBE_BATCH'] ?? 500);
const ROUNDS = Number(process.env['PROBE_ROUNDS'] ?? 8);
const TENANTS = Number(process.env['PROBE_TENANTS'] ?? 0);

/** @param {Record<string, number>} sink @param {string} name @param {(...a: any[]) => Promise<any>} fn */
const timed =
  (sink, name, fn) =>
  async (/** @type {any[]} */ ...args) => {
    const t0 = performance.now();
    try {
      return await fn(...args);
    } finally {
      sink[name] = (sink[name] ?? 0) + (performance.now() - t0);
    }
  };

const infra = await startInfrastructure();
const mongo0 = new MongoClient(infra.mongoUrl, { monitorCommands: true });
/** Time per command and collection on the server, from the driver's command monitoring. */
const commands = new Map();
mongo0.on('commandSucceeded', (e) => {
  const key = `${e.commandName}`;
  const row = commands.get(key) ?? { n: 0, ms: 0 };
  row.n += 1;
  row.ms += e.duration;
  commands.set(key, row);
});
const dumpCommands = (/** @type {string} */ label) => {
  const rows = [...commands].map(([k, r]) => `${k} ${r.n}× ${(r.ms / r.n).toFixed(1)} ms`);
  console.log(label, rows.join('; '));
  commands.clear();
};
const db0 = mongo0.db(`probe_${process.pid}`);
// PROBE_EVENTS_DB=separate: the raw event log in a database of its own (FerretDB: its own SQLite file).
const eventsDb =
  process.env['PROBE_EVENTS_DB'] === 'separate' ? mongo0.db(`probe_${process.pid}_events`) : db0;

/**
 * The 1,000-tenant shape through the consumer's batch handler (its concurrency, its raw log once
 * per batch, its memory of its writes): PROBE_TENANTS tenants, PROBE_MANY_BATCH tenants' groups
 * of one event a batch (the paced phase's 75: 500/s over a 150 ms window), two rounds, so the
 * second finds every tenant remembered. Store calls timed per group.
 */
async function manyTenants() {
  const lock = createTenantWriteLock();
  const aggregates = aggregatesRepository(db0, lock, undefined, lastWrittenAggregates());
  const raw = rawEventsRepository(db0);
  const drift = driftRepository(db0, lock);
  const tenants = Array.from({ length: TENANTS }, () => randomUUID());
  const perBatch = Number(process.env['PROBE_MANY_BATCH'] ?? 75);
  let seq = 0;
  for (const round of [0, 1]) {
    /** @type {Record<string, number>} */
    const t = {};
    const handler = productBatchHandler({
      aggregates: {
        load: timed(t, 'load', aggregates.loadForFacts),
        applyFacts: timed(t, 'applyFacts', aggregates.applyFacts),
      },
      markers: itemMarkersRepository(db0),
      rawEvents: {
        append: timed(t, 'raw append', raw.append),
        appendGroups: timed(t, 'raw append (batch)', raw.appendGroups),
        existing: timed(t, 'raw existing', raw.existing),
      },
      now: () => new Date(),
      rescanMs: 900_000,
      schedule: timed(t, 'schedule', (/** @type {string} */ id, /** @type {Date | null} */ at) =>
        drift.schedule(id, at),
      ),
      onTransitions: () => undefined,
      logger: { warn: () => undefined },
    });
    const started = performance.now();
    for (let from = 0; from < TENANTS; from += perBatch) {
      const groups = tenants.slice(from, from + perBatch).map((tenantId, k) => ({
        tenantId,
        items: [{ event: journeyEvent(tenantId, round + ((from + k) % 4) * 2, new Date()), seq: (seq += 1) }],
      }));
      await handler(/** @type {any} */ (groups));
    }
    const total = performance.now() - started;
    const per = Object.fromEntries(
      Object.entries({ ...t, total }).map(([k, v]) => [k, +(v / TENANTS).toFixed(2)]),
    );
    dumpCommands(`many tenants, round ${round + 1}, per command:`);
    console.log(
      JSON.stringify({
        tenants: TENANTS,
        round: round + 1,
        tenantsPerBatch: perBatch,
        msPerTenantGroup: per,
        eventsPerSecond: Math.round(TENANTS / (total / 1000)),
      }),
    );
  }
}
const mongo = mongo0;
const db = db0;
try {
  await ensureAdoptionIndexes(db, 180 * DAY);
  if (eventsDb !== db) await ensureAdoptionIndexes(eventsDb, 180 * DAY);
  commands.clear();
  if (TENANTS > 0) await manyTenants();
  for (const prior of PRIORS) {
    const tenantId = await loadHistory(db, prior, undefined, eventsDb);
    /** @type {Record<string, number>} */
    const t = {};
    const parts = summaryPartsRepository(db);
    // As the consumer runs: with its memory of its own last write (the first group reads).
    const aggregates = aggregatesRepository(
      db,
      createTenantWriteLock(),
      {
        ...parts,
        read: timed(t, 'parts read', parts.read),
        insert: async (/** @type {any[]} */ ...a) => {
          t['parts inserted'] = (t['parts inserted'] ?? 0) + 1;
          return timed(t, 'parts insert', parts.insert)(...a);
        },
      },
      lastWrittenAggregates(),
    );
    const raw = rawEventsRepository(eventsDb);
    const deps = {
      aggregates: {
        load: timed(t, 'load', aggregates.loadForFacts),
        applyFacts: timed(t, 'applyFacts', aggregates.applyFacts),
      },
      markers: itemMarkersRepository(db),
      rawEvents: {
        append: timed(t, 'raw append', raw.append),
        appendGroups: timed(t, 'raw append', raw.appendGroups),
        existing: timed(t, 'raw existing', raw.existing),
      },
      now: () => new Date(),
      rescanMs: 900_000,
      schedule: async () => undefined,
      onTransitions: () => undefined,
    };
    let total = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const start = Date.now() - DAY;
      const items = Array.from({ length: BATCH }, (_, i) => {
        const n = round * BATCH + i;
        return { event: journeyEvent(tenantId, n, new Date(start + n * 1_000)), seq: n + 1 };
      });
      const t0 = performance.now();
      await ingestProductEvents(deps, tenantId, items);
      total += performance.now() - t0;
    }
    const stored = await db.collection('aggregates').findOne({ _id: /** @type {any} */ (tenantId) });
    const store = ['load', 'applyFacts', 'raw append', 'raw existing'].reduce((a, k) => a + (t[k] ?? 0), 0);
    const per = Object.fromEntries(
      Object.entries({ ...t, 'in process': total - store, total }).map(([k, v]) => [
        k,
        +(v / ROUNDS).toFixed(1),
      ]),
    );
    console.log(
      JSON.stringify({
        prior,
        batch: BATCH,
        documentBytes: BSON.calculateObjectSize(stored ?? {}),
        parts: stored?.['summaryParts']?.length,
        msPerBatch: per,
        eventsPerSecond: Math.round((BATCH * ROUNDS) / (total / 1000)),
      }),
    );
  }
} finally {
  await db.dropDatabase();
  if (eventsDb !== db) await eventsDb.dropDatabase();
  await mongo.close();
  await infra.stop();
}
