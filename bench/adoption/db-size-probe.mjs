#!/usr/bin/env node
/**
 * What a database's size costs the consumer's writes on FerretDB (issue 13, history
 * independence): the same writes alternated between a database holding only the written
 * collections and one that also holds PRIOR (1,000,000) raw events, medians per write, so the
 * machine's other load hits both alike. The writes: a summary part of ~300 facts (insertOne), a
 * raw-log insertMany of 500 events, and an aggregate-sized updateOne by _id.
 *   node bench/adoption/db-size-probe.mjs      (PRIOR=1000000 ROUNDS=15)
 * MONGO_URL may point at a FerretDB started with other SQLite settings.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { startInfrastructure } from '@tap/testkit';

const PRIOR = Number(process.env['PRIOR'] ?? 1_000_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 15);
const CHUNK = 10_000;

/** @param {number} n @param {string} tenantId */
const rawEvent = (n, tenantId) => ({
  _id: randomUUID(),
  tenantId,
  type: 'product.updated',
  occurredAt: new Date(Date.now() - n * 1_000).toISOString(),
  subject: { productId: `p-${n % 300}` },
  data: {},
  receivedAt: new Date(),
});
const part = () => ({
  _id: `t:${randomUUID()}`,
  facts: Array.from({ length: 300 }, (_, i) => ({
    id: randomUUID(),
    type: 'product.created',
    occurredAt: new Date().toISOString(),
    subject: { productId: `p-${i}` },
    data: {},
  })),
  slots: Array.from({ length: 600 }, (_, i) => ({ key: `k:${i}`, ids: [String(i)] })),
});
/** @param {import('mongodb').Db} db @param {string} name */
const coll = (db, name) => /** @type {import('mongodb').Collection<any>} */ (db.collection(name));
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
/** @param {() => Promise<unknown>} fn */
const time = async (fn) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/**
 * ROUNDS rounds of the writes on each database in turn, times appended to `ms[name]`.
 * @param {Record<string, Record<string, number[]>>} ms
 * @param {[string, import('mongodb').Db][]} dbs
 */
async function measure(ms, dbs) {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, db] of dbs) {
      const row = ms[name] ?? {};
      const add = (/** @type {string} */ k, /** @type {number} */ v) => (row[k] ??= []).push(v);
      add('part insertOne', await time(() => coll(db, 'summary_parts').insertOne(part())));
      add(
        'raw insertMany 500',
        await time(() =>
          coll(db, 'events').insertMany(
            Array.from({ length: 500 }, (_, i) => rawEvent(i, 'busy')),
            { ordered: false },
          ),
        ),
      );
      add(
        'aggregate updateOne',
        await time(() => coll(db, 'aggregates').updateOne({ _id: 't' }, { $inc: { version: 1 } })),
      );
      add('aggregate findOne', await time(() => coll(db, 'aggregates').findOne({ _id: 't' })));
    }
  }
}

const infra = await startInfrastructure();
const mongo = new MongoClient(infra.mongoUrl);
const small = mongo.db(`dbsize_small_${process.pid}`);
const large = mongo.db(`dbsize_large_${process.pid}`);
try {
  for (const db of [small, large]) {
    const events = coll(db, 'events');
    await events.createIndex({ tenantId: 1, occurredAt: 1 }, { name: 'tenant_occurred_at' });
    await events.createIndex({ receivedAt: 1 }, { name: 'received_at' });
    await coll(db, 'aggregates').insertOne({ _id: 't', version: 0, blob: 'x'.repeat(40_000) });
  }
  /** @type {Record<string, Record<string, number[]>>} */
  const ms = { 'small, before the load': {}, small: {}, large: {} };
  await measure(ms, [['small, before the load', small]]);
  const loadStarted = performance.now();
  const history = coll(large, 'events');
  for (let from = 0; from < PRIOR; from += CHUNK) {
    await history.insertMany(
      Array.from({ length: Math.min(CHUNK, PRIOR - from) }, (_, i) => rawEvent(from + i, 'history')),
      { ordered: false },
    );
  }
  process.stderr.write(
    `loaded ${PRIOR} events in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s\n`,
  );
  await measure(ms, [
    ['small', small],
    ['large', large],
  ]);
  const report = Object.fromEntries(
    Object.entries(ms).map(([name, row]) => [
      name,
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, +median(v).toFixed(1)])),
    ]),
  );
  console.log(JSON.stringify({ prior: PRIOR, rounds: ROUNDS, medianMs: report }));
} finally {
  await small.dropDatabase();
  await large.dropDatabase();
  await mongo.close();
  await infra.stop();
}
