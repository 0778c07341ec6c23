#!/usr/bin/env node
/**
 * Adoption benchmark: how many product events per second the adoption consumer applies (dedupe,
 * recompute, one conditional document write, ack), and how long an event takes from publish to
 * being visible through GetState (p50/p99). Each number is printed next to a baseline measured
 * in the same run on the same servers, and as a ratio:
 *   - throughput vs the same JetStream consumer with a handler that does nothing, and vs the
 *     smallest Mongo write per event (`$push` + `$inc` on the tenant's document);
 *   - latency vs publish → no-op handler (JetStream end to end).
 *
 *   npx turbo run build --filter=@tap/adoption && node bench/adoption/run.mjs
 *
 * Starts NATS and FerretDB on free loopback ports through @tap/testkit unless MONGO_URL,
 * NATS_URL and REDIS_URL are set. Bounded: BENCH_SECONDS (default 5) per latency phase, a 10 s
 * budget per throughput phase; the whole run takes about 30 s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { startInfrastructure } from '@tap/testkit';
import { openBed } from './bed.mjs';
import {
  adoptionLatency,
  adoptionThroughput,
  jetstreamLatency,
  jetstreamThroughput,
  mongoThroughput,
} from './measure.mjs';
import { busyTenantThroughput } from './history.mjs';
import { printReport } from './print.mjs';

const TENANTS = Number(process.env['BENCH_TENANTS'] ?? 6);
const PER_TENANT = Number(process.env['BENCH_EVENTS_PER_TENANT'] ?? 60);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const THROUGHPUT_BUDGET_MS = 10_000;
const MAX_LATENCY_SAMPLES = 500;
/** History independence: one busy tenant's new events over these amounts of prior history. */
const PRIOR_HISTORIES = (process.env['BENCH_PRIOR_EVENTS'] ?? '100,100000').split(',').map((n) => Number(n));
const BUSY_EVENTS = Number(process.env['BENCH_BUSY_EVENTS'] ?? 3_000);
const BUSY_BUDGET_MS = 60_000;

async function main() {
  const infra = await startInfrastructure();
  const bed = await openBed(infra, `bench_adoption_${process.pid}`);
  try {
    const tenants = Array.from({ length: TENANTS }, () => randomUUID());
    await Promise.all(tenants.map((t) => bed.setTier(t, 'CORE')));
    const ours = await adoptionThroughput(bed, tenants, PER_TENANT, THROUGHPUT_BUDGET_MS);
    const jetstream = await jetstreamThroughput(bed, tenants, PER_TENANT, THROUGHPUT_BUDGET_MS);
    const mongo = await mongoThroughput(
      bed.db,
      tenants.map(() => randomUUID()),
      PER_TENANT,
      THROUGHPUT_BUDGET_MS,
    );
    // Enterprise lacks no capability, so GetState asks entitlements for the tier only.
    const watched = randomUUID();
    await bed.setTier(watched, 'ENTERPRISE');
    const bounds = { seconds: SECONDS, maxSamples: MAX_LATENCY_SAMPLES };
    const latency = await adoptionLatency(bed, watched, bounds);
    const baseLatency = await jetstreamLatency(bed, watched, bounds);
    /** @type {Array<{ prior: number; events: number; seconds: number; perSecond: number }>} */
    const history = [];
    for (const prior of PRIOR_HISTORIES) {
      history.push(await busyTenantThroughput(bed, prior, BUSY_EVENTS, BUSY_BUDGET_MS));
    }
    const report = {
      machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}`,
      // Other work on the machine moves every number; the 1-minute load average says how much.
      loadAverage: loadavg()[0] ?? 0,
      node: process.version,
      infrastructure: infra.sources,
      backlog: { tenants: TENANTS, eventsPerTenant: PER_TENANT },
      throughput: { adoption: ours, jetstreamNoop: jetstream, mongoPushOnly: mongo },
      latency: { adoption: latency, jetstreamNoop: baseLatency },
      history,
    };
    printReport(report);
    const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'adoption.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await bed.close();
    await infra.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
