#!/usr/bin/env node
/**
 * What a summary part's stored shape costs on the store (issue 13, the busy tenant's batch):
 * the changed slots of one 500-event group of the busy journey, inserted as FerretDB must store
 * it field by field (`facts` and `slots` arrays of documents) against the same content as one
 * packed value (deflated JSON in a Binary). Medians over ROUNDS alternated inserts and reads.
 *   node bench/adoption/part-format-probe.mjs      (ROUNDS=15)
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';
import { Binary, BSON, MongoClient } from 'mongodb';
import { startInfrastructure } from '@tap/testkit';
import { EMPTY_SUMMARY, foldFacts, toFact } from '../../services/adoption/dist/domain/index.js';
import { encodePartContent } from '../../services/adoption/dist/store/summary-parts-repository.js';
import { journeyEvent } from './journey.mjs';

const ROUNDS = Number(process.env['ROUNDS'] ?? 15);
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const tenantId = randomUUID();
const now = new Date();
const facts = Array.from({ length: 500 }, (_, n) =>
  toFact(journeyEvent(tenantId, n, new Date(now.getTime() - 86_400_000 + n * 1_000))),
).filter((f) => f !== null);
const slots = foldFacts(EMPTY_SUMMARY, facts, now).slots;
const fields = encodePartContent(slots);
const json = JSON.stringify(fields);
const pack = () => new Binary(deflateRawSync(json, { level: constants.Z_BEST_SPEED }));

const infra = await startInfrastructure();
const mongo = new MongoClient(infra.mongoUrl);
const db = mongo.db(`partformat_${process.pid}`);
/** @type {import('mongodb').Collection<any>} */
const parts = db.collection('summary_parts');
try {
  /** @type {Record<string, number[]>} */
  const ms = {};
  const add = (/** @type {string} */ k, /** @type {number} */ v) => (ms[k] ??= []).push(v);
  for (let round = 0; round < ROUNDS; round += 1) {
    let t0 = performance.now();
    const a = `${tenantId}:${randomUUID()}`;
    await parts.insertOne({ _id: a, tenantId, ...fields, createdAt: now });
    add('insert, fields', performance.now() - t0);
    t0 = performance.now();
    const b = `${tenantId}:${randomUUID()}`;
    await parts.insertOne({ _id: b, tenantId, packed: pack(), createdAt: now });
    add('insert, packed (incl. deflate)', performance.now() - t0);
    t0 = performance.now();
    await parts.findOne({ _id: a });
    add('read, fields', performance.now() - t0);
    t0 = performance.now();
    const doc = await parts.findOne({ _id: b });
    JSON.parse(inflateRawSync(doc?.packed.buffer).toString());
    add('read, packed (incl. inflate)', performance.now() - t0);
  }
  console.log(
    JSON.stringify({
      slots: slots.length,
      facts: fields.facts.length,
      bsonBytes: BSON.calculateObjectSize(fields),
      packedBytes: pack().length(),
      medianMs: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, +median(v).toFixed(1)])),
    }),
  );
} finally {
  await db.dropDatabase();
  await mongo.close();
  await infra.stop();
}
