#!/usr/bin/env node
/**
 * What a lookup or an update by `_id` costs on our FerretDB v1 (SQLite), variant by variant, beside
 * the bare `findOne({ _id })` of the same run, at several collection sizes (docs/foundation.md,
 * "FerretDB's limits"). It starts its own FerretDB on a free loopback port in a temporary
 * directory, so it can compare binaries and start options:
 *
 *   node bench/ferretdb-probe/run.mjs
 *   FERRETDB_BIN=/path/to/ferretdb node bench/ferretdb-probe/run.mjs        # another build
 *   PROBE_SQLITE_QUERY='_pragma=synchronous(normal)' node bench/ferretdb-probe/run.mjs
 *   PROBE_FLAGS=--test-disable-pushdown node bench/ferretdb-probe/run.mjs
 *
 * PROBE_SIZES (default 1000,20000): documents per collection. Every variant runs at most
 * PROBE_REPS times (default 30) and stops early after PROBE_BUDGET_MS (default 2,000) of work,
 * never fewer than 3 times: bounded whatever the binary does.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { freeLoopbackPort, waitForPort } from '@tap/testkit';
import { MongoClient, ObjectId } from 'mongodb';

const root = resolve(import.meta.dirname, '../..');
const BIN = process.env['FERRETDB_BIN'] ?? join(root, '.infra/bin/ferretdb');
const SIZES = (process.env['PROBE_SIZES'] ?? '1000,20000').split(',').map(Number);
const REPS = Number(process.env['PROBE_REPS'] ?? 30);
const BUDGET_MS = Number(process.env['PROBE_BUDGET_MS'] ?? 2_000);
const SQLITE_QUERY = process.env['PROBE_SQLITE_QUERY'] ?? '';
const FLAGS = (process.env['PROBE_FLAGS'] ?? '').split(' ').filter(Boolean);

/** Starts FerretDB (SQLite) in a fresh directory; returns its URL and a stop function. */
async function startFerret() {
  const dir = mkdtempSync(join(tmpdir(), 'ferretdb-probe-'));
  const port = await freeLoopbackPort();
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${dir}/${SQLITE_QUERY ? `?${SQLITE_QUERY}` : ''}`,
    `--state-dir=${dir}`,
    `--listen-addr=127.0.0.1:${port}`,
    '--telemetry=disable',
    '--debug-addr=-',
    '--log-level=error',
    ...FLAGS,
  ];
  const child = spawn(BIN, args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitForPort(port, 20_000, () => !exited);
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const uuid = (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const KINDS = {
  'string (UUID)': (i) => uuid(i),
  ObjectId: (i) => new ObjectId(i.toString(16).padStart(24, '0')),
  number: (i) => i,
};

/** A usage-like document: the shape entitlements writes per tenant. */
function doc(id, i) {
  return {
    _id: id,
    tenant: uuid(i),
    counters: { MAX_ACTIVE_PRODUCTS: { used: i, held: 0 }, MAX_USERS: { used: 3, held: 0 } },
    months: {},
    reservations: {},
    lastSeq: 0,
    version: 0,
  };
}

/** Mean ms per call of `run(i)`, bounded by REPS and BUDGET_MS. */
async function time(run) {
  const started = performance.now();
  let n = 0;
  while (n < REPS && (n < 3 || performance.now() - started < BUDGET_MS)) {
    await run(n);
    n += 1;
  }
  return (performance.now() - started) / n;
}

async function plan(db, name, filter) {
  const out = await db.command({ explain: { find: name, filter } });
  const detail = (out['queryPlanner']?.Plan ?? []).map((p) => String(p).replace(/.*detail=/, '')).join('; ');
  return `${out['filterPushdown'] ? 'pushdown' : 'no pushdown'}: ${detail}`;
}

async function probe(db, kind, size) {
  const make = KINDS[kind];
  const name = `probe_${Object.keys(KINDS).indexOf(kind)}_${size}`;
  const coll = db.collection(name);
  for (let i = 0; i < size; i += 1_000) {
    await coll.insertMany(
      Array.from({ length: Math.min(1_000, size - i) }, (_, j) => doc(make(i + j), i + j)),
    );
  }
  // A different existing document every call, spread over the collection.
  const pick = (n) => make((n * 7_919) % size);
  const rows = [];
  const baseline = await time((n) => coll.findOne({ _id: pick(n) }));
  const add = async (variant, ms, explainFilter) =>
    rows.push({
      kind,
      size,
      variant,
      ms: +ms.toFixed(2),
      'x findOne': +(ms / baseline).toFixed(1),
      plan: explainFilter ? await plan(db, name, explainFilter) : '',
    });
  await add('findOne {_id} (baseline)', baseline, { _id: pick(1) });
  if (kind !== 'string (UUID)') return rows;
  await add(
    'findOne {_id} + projection',
    await time((n) => coll.findOne({ _id: pick(n) }, { projection: { counters: 1, lastSeq: 1 } })),
  );
  await add('findOne {_id: {$eq}}', await time((n) => coll.findOne({ _id: { $eq: pick(n) } })), {
    _id: { $eq: pick(1) },
  });
  await add(
    'findOne {_id, version}',
    await time((n) => coll.findOne({ _id: pick(n), version: { $gte: 0 } })),
    {
      _id: pick(1),
      version: { $gte: 0 },
    },
  );
  await add(
    'findOne {tenant} (secondary index)',
    await time((n) => coll.findOne({ tenant: uuid((n * 7_919) % size) })),
  );
  await coll.createIndex({ tenant: 1 });
  await add(
    '  … after createIndex({tenant: 1})',
    await time((n) => coll.findOne({ tenant: uuid((n * 7_919) % size) })),
    {
      tenant: uuid(1),
    },
  );
  await add(
    'updateOne {_id} $inc',
    await time((n) => coll.updateOne({ _id: pick(n) }, { $inc: { version: 1 } })),
  );
  await add(
    'updateOne {_id, lastSeq} $inc (conditional)',
    await time((n) => coll.updateOne({ _id: pick(n), lastSeq: 0 }, { $inc: { version: 1 } })),
  );
  await add(
    'updateOne {_id} upsert',
    await time((n) => coll.updateOne({ _id: pick(n) }, { $inc: { version: 1 } }, { upsert: true })),
  );
  await add(
    'findOneAndUpdate {_id, lastSeq}',
    await time((n) => coll.findOneAndUpdate({ _id: pick(n), lastSeq: 0 }, { $inc: { version: 1 } })),
  );
  await add(
    'replaceOne {_id}',
    await time((n) => coll.replaceOne({ _id: pick(n) }, doc(pick(n), (n * 7_919) % size))),
  );
  const BULK = 50;
  const bulk = await time((n) =>
    coll.bulkWrite(
      Array.from({ length: BULK }, (_, j) => ({
        updateOne: { filter: { _id: pick(n * BULK + j), lastSeq: 0 }, update: { $inc: { version: 1 } } },
      })),
      { ordered: false },
    ),
  );
  await add(`bulkWrite of ${BULK} conditional updateOne, per update`, bulk / BULK);
  const side = await time((n) =>
    Promise.all(
      Array.from({ length: BULK }, (_, j) =>
        coll.updateOne({ _id: pick(n * BULK + j), lastSeq: 0 }, { $inc: { version: 1 } }),
      ),
    ),
  );
  await add(`${BULK} conditional updateOne side by side, per update`, side / BULK);
  await add('insertOne (new _id)', await time((n) => coll.insertOne(doc(make(size + n), size + n))));
  return rows;
}

async function main() {
  const ferret = await startFerret();
  const client = new MongoClient(ferret.url);
  const db = client.db('probe');
  const rows = [];
  try {
    for (const size of SIZES) {
      for (const kind of Object.keys(KINDS)) rows.push(...(await probe(db, kind, size)));
    }
  } finally {
    await client.close();
    await ferret.stop();
  }
  console.log(
    `binary: ${BIN}${SQLITE_QUERY ? `, sqlite ?${SQLITE_QUERY}` : ''}${FLAGS.length ? `, ${FLAGS.join(' ')}` : ''}`,
  );
  console.table(rows);
}

await main();
