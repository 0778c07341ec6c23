#!/usr/bin/env node
/**
 * What applying a group of new products costs at a tenant's first products and at its
 * 500,000th, on the store alone (no bus, no gateway): the use case `ingestProductEvents` over a
 * real FerretDB it starts, beside the bare `insertMany` of the same number of documents in the
 * same run. Prints per-size events/s, p50/p99 per group and the ratio to the first size.
 *
 *   node bench/adoption-items/run.mjs
 *   ITEMS_SIZES=1000,100000,500000 ITEMS_GROUP=500 ITEMS_SAMPLE_GROUPS=20 node bench/adoption-items/run.mjs
 *
 * Between sizes the tenant is grown with the same use case (that is a measurement too: its rate
 * is printed). Bounded: every loop runs a fixed number of groups.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { freeLoopbackPort, waitForPort } from '@tap/testkit';
import { MongoClient } from 'mongodb';
import { ingestProductEvents } from '../../services/adoption/dist/operations/ingest-product-events.js';
import { aggregatesRepository } from '../../services/adoption/dist/store/aggregates-repository.js';
import { driftRepository } from '../../services/adoption/dist/store/drift-repository.js';
import { itemMarkersRepository } from '../../services/adoption/dist/store/item-markers-repository.js';
import { rawEventsRepository } from '../../services/adoption/dist/store/raw-events-repository.js';
import { createTenantWriteLock } from '../../services/adoption/dist/store/tenant-write-lock.js';

const root = resolve(import.meta.dirname, '../..');
const SIZES = (process.env['ITEMS_SIZES'] ?? '1000,100000,500000').split(',').map(Number);
const GROUP = Number(process.env['ITEMS_GROUP'] ?? 500);
const SAMPLE_GROUPS = Number(process.env['ITEMS_SAMPLE_GROUPS'] ?? 20);
const WARMUP_GROUPS = Number(process.env['ITEMS_WARMUP_GROUPS'] ?? 5);

async function startFerret() {
  const dir = mkdtempSync(join(tmpdir(), 'items-bench-'));
  const port = await freeLoopbackPort();
  const child = spawn(
    join(root, '.infra/bin/ferretdb'),
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/?_pragma=synchronous(normal)`,
      `--state-dir=${dir}`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      '--debug-addr=-',
      '--log-level=error',
    ],
    { stdio: 'ignore' },
  );
  await waitForPort(port, 20_000, () => child.exitCode === null);
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

const ferret = await startFerret();
const client = await MongoClient.connect(ferret.url);
try {
  const db = client.db('adoption_items_bench');
  const lock = createTenantWriteLock();
  const drift = driftRepository(db, lock);
  let now = new Date('2026-01-01T00:00:00Z');
  const deps = {
    aggregates: aggregatesRepository(db, lock),
    markers: itemMarkersRepository(db),
    rawEvents: rawEventsRepository(db),
    now: () => now,
    rescanMs: 900_000,
    schedule: (tenantId, at) => drift.schedule(tenantId, at),
    onTransitions: () => undefined,
  };
  const stages = {};
  const timedPort = (name, port) =>
    Object.fromEntries(
      Object.entries(port).map(([k, fn]) => [
        k,
        typeof fn !== 'function'
          ? fn
          : async (...args) => {
              const t = performance.now();
              try {
                return await fn(...args);
              } finally {
                stages[`${name}.${k}`] = (stages[`${name}.${k}`] ?? 0) + performance.now() - t;
              }
            },
      ]),
    );
  if (process.env['ITEMS_STAGES']) {
    deps.aggregates = timedPort('aggregates', deps.aggregates);
    deps.markers = timedPort('markers', deps.markers);
    deps.rawEvents = timedPort('rawEvents', deps.rawEvents);
    const schedule = deps.schedule;
    deps.schedule = timedPort('drift', { schedule }).schedule;
  }
  const tenantId = 'bench-tenant';
  let next = 0;
  let seq = 0;
  const group = () =>
    Array.from({ length: GROUP }, () => {
      const n = next++;
      seq += 1;
      return {
        seq,
        event: {
          id: `evt-${n}`,
          type: 'product.created',
          tenantId,
          occurredAt: new Date(now.getTime() + n).toISOString(),
          subject: { productId: `product-${n}` },
          data: {},
        },
      };
    });
  const bare = db.collection('bare_insert');
  const rows = [];
  for (const size of SIZES) {
    const growStart = performance.now();
    const grown = next;
    while (next < size) await ingestProductEvents(deps, tenantId, group());
    const growMs = performance.now() - growStart;
    const growRate = next > grown ? ((next - grown) / growMs) * 1000 : null;
    const times = [];
    const bareTimes = [];
    // Warm-up groups (JIT, the database's caches) are applied but not timed.
    for (let i = 0; i < WARMUP_GROUPS; i += 1) await ingestProductEvents(deps, tenantId, group());
    for (let i = 0; i < SAMPLE_GROUPS; i += 1) {
      const t0 = performance.now();
      await ingestProductEvents(deps, tenantId, group());
      times.push(performance.now() - t0);
      const docs = Array.from({ length: GROUP }, (_, k) => ({ _id: `bare-${size}-${i}-${k}`, n: k }));
      const t1 = performance.now();
      await bare.insertMany(docs, { ordered: false });
      bareTimes.push(performance.now() - t1);
    }
    const aggregate = await deps.aggregates.load(tenantId);
    const rate = (GROUP * SAMPLE_GROUPS) / (times.reduce((a, b) => a + b, 0) / 1000);
    rows.push({
      products: aggregate.summary.items?.product ?? 0,
      eventsPerSecond: Math.round(rate),
      growEventsPerSecond: growRate === null ? '-' : Math.round(growRate),
      groupP50Ms: +quantile(times, 0.5).toFixed(1),
      groupP99Ms: +quantile(times, 0.99).toFixed(1),
      bareInsertP50Ms: +quantile(bareTimes, 0.5).toFixed(1),
      vsBareInsert: +(quantile(times, 0.5) / quantile(bareTimes, 0.5)).toFixed(2),
      summaryFacts: aggregate.facts.length,
      rssMb: Math.round(process.memoryUsage().rss / 1_048_576),
    });
    console.log(JSON.stringify(rows.at(-1)));
    if (process.env['ITEMS_STAGES']) {
      console.log(Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(v)])));
      for (const k of Object.keys(stages)) delete stages[k];
    }
  }
  const first = rows[0];
  console.log(
    `\nproduct.created applied on the store, groups of ${GROUP}, ${SAMPLE_GROUPS} sampled per size:`,
  );
  console.table(
    rows.map((r) => ({
      ...r,
      vsFirstSize: +(r.eventsPerSecond / first.eventsPerSecond).toFixed(2),
    })),
  );
  const flat = rows.every((r) => Math.abs(r.eventsPerSecond / first.eventsPerSecond - 1) <= 0.2);
  console.log(`${flat ? 'PASS' : 'FAIL'} per-event cost within ±20% of the first size at every size`);
} finally {
  await client.close();
  await ferret.stop();
}
