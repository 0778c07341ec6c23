#!/usr/bin/env node
/**
 * Adoption at scale, through the whole stack's public API and bus (issue #23, section 6): the
 * four services as `npm run up` runs them (bench/reads/stack.mjs: one process each from its
 * built dist/main.js, production wiring, mutual TLS, real FerretDB / NATS JetStream / Redis),
 * the gateway's answer reuse off (GATEWAY_ANSWER_REUSE_MS=0 unless set), and a bare Fastify
 * hello-world in its own process as the reads' baseline, measured in the same run.
 *
 *   npm run build && node bench/adoption/scale/run.mjs
 *   BENCH_SIZES=1000,10000 BENCH_TENANTS=50 node bench/adoption/scale/run.mjs   # a quick run
 *
 * A. After BENCH_WARM_UP_EVENTS (20,000) products of another tenant, drained untimed (a warm
 *    process), one ENTERPRISE tenant is brought to each of BENCH_SIZES distinct products (default
 *    1000,100000,500000; cumulative, `product.created` on JetStream as the products service
 *    publishes it; the fill is untimed). At each size the same load of BENCH_DRAIN_EVENTS (20,000)
 *    new products is the drained-throughput figure (published as fast as JetStream takes them →
 *    PRODUCTS count in GET /tenant/adoption/coverage), then
 *    publish → visible p50/p99 paced at BENCH_PACED_RATE (2,000/s) for BENCH_PACED_SECONDS (3,
 *    adding rate × seconds products), then BENCH_STATE_READS (200) single GET
 *    /tenant/adoption/state one after another. Each figure beside the first size's.
 * B. BENCH_TENANTS (1,000) ENTERPRISE tenants, each with its own OAuth client's token, 64
 *    connections, each request the next tenant's token: every adoption read and GET
 *    /entitlements/usage for BENCH_SECONDS (8) after 2 s of warm-up, beside bare Fastify and
 *    beside the stack's floor (bench/reads/floor.mjs: the I/O of a state read, bare Fastify →
 *    Redis ×2 → bare grpc-js over mutual TLS → Redis, a real tenant's state as the answer, none
 *    of our code), and the same floor answering a few bytes: what the architecture itself costs on
 *    this machine.
 * C. The adoption process's RSS (/proc/<pid>/status VmRSS) with those tenants and the big one.
 *
 * Bounded: a size whose load runs below BENCH_DRAIN_MIN_RATE events/s (1,000) is given up (its
 * backlog purged, larger sizes skipped); paced phases wait 10 s at most for unseen events; the
 * tenants' histories 2 minutes. Prints a PASS/FAIL line per target; writes
 * bench/results/adoption-scale.json. Uses MONGO_URL / NATS_URL / REDIS_URL when set, else starts
 * its own servers (@tap/testkit).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { startInfrastructure } from '@tap/testkit';
import { REPO_ROOT, startNode, waitUntil } from '../../identity/processes.mjs';
import { startFloor } from '../../reads/floor.mjs';
import { hammer } from '../../reads/load.mjs';
import { startStack } from '../../reads/stack.mjs';
import { printReport } from './report.mjs';
import { perRequest, scrapeCounts, settleBackground } from './io-tally.mjs';
import { drain, gatewayReader, paced, settle, singleReads, singleTrip } from './scale.mjs';
import { clientTokens, firstPass, manyTenants } from './tenants.mjs';

/** @param {string} name @param {number} fallback */
const numberEnv = (name, fallback) => Number(process.env[name] ?? fallback);
const SIZES = (process.env['BENCH_SIZES'] ?? '1000,100000,500000').split(',').map(Number);
const PACED_RATE = numberEnv('BENCH_PACED_RATE', 2_000);
const PACED_SECONDS = numberEnv('BENCH_PACED_SECONDS', 3);
/** One coverage read at a time, this often: the quantum it adds to a publish → visible figure. */
const POLL_MS = numberEnv('BENCH_POLL_MS', 10);
const STATE_READS = numberEnv('BENCH_STATE_READS', 200);
const DRAIN_MIN_RATE = numberEnv('BENCH_DRAIN_MIN_RATE', 1_000);
const DRAIN_TARGET = 5_000;
/** New products timed as the drain at every size (the same load, so the sizes compare). */
const DRAIN_EVENTS = numberEnv('BENCH_DRAIN_EVENTS', 20_000);
/** Products of a tenant of its own drained untimed before A: the event path's JIT and stores warm. */
const WARM_UP_EVENTS = numberEnv('BENCH_WARM_UP_EVENTS', 20_000);
/** Single events timed before each load (their median trip is taken out of the drain's time). */
const TRIP_SAMPLES = 5;
const TENANTS = numberEnv('BENCH_TENANTS', 1_000);
const SECONDS = numberEnv('BENCH_SECONDS', 8);
const WARM_UP_SECONDS = 2;
const FLOOR_CASE = 'floor: the I/O of a state read, none of ours';
const SMALL_FLOOR_CASE = 'floor, answering a few bytes';
const CONNECTIONS = 64;
// BENCH_READS (comma-separated paths) picks and orders the read cases.
const READS = process.env['BENCH_READS']?.split(',').filter(Boolean) ?? [
  '/tenant/adoption/state',
  '/tenant/adoption/next-best-action',
  '/tenant/adoption/coverage',
  '/tenant/adoption/risk-signals',
  '/tenant/adoption/health-explanation',
  '/tenant/adoption/success-plan',
  '/entitlements/usage',
];

/** @param {string} text */
const progress = (text) => void process.stderr.write(`${new Date().toISOString()} ${text}\n`);

/** VmRSS and VmHWM (peak) of a process in MB, from /proc (Linux). @param {number | undefined} pid */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  /** @param {string} field */
  const mb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1_024;
  return { rssMb: mb('VmRSS'), peakMb: mb('VmHWM') };
}

/**
 * The V8 heap in use in a service (prom-client's nodejs_heap_size_used_bytes on its admin port),
 * in MB: beside RSS it says how much of the process is live data rather than heap not yet returned.
 * @param {number | undefined} port
 */
async function heapUsedMb(port) {
  if (port === undefined) return undefined;
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  const bytes = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?)/m.exec(text)?.[1];
  return bytes === undefined ? undefined : Number(bytes) / 1_048_576;
}

async function main() {
  process.env['GATEWAY_ANSWER_REUSE_MS'] ??= '0';
  const loadAtStart = loadavg().map((l) => +l.toFixed(2));
  const infra = await startInfrastructure({});
  // One trusted proxy hop, as behind the production ingress: each tenant's integration asks for
  // its token from its own address (X-Forwarded-For).
  const stack = await startStack(infra, `bench_scale_${process.pid}`, {
    gatewayEnv: { GATEWAY_TRUST_PROXY_HOPS: '1' },
    // BENCH_PROFILE_DIR: every service's CPU profile (node --cpu-prof), written when it stops.
    ...(process.env['BENCH_PROFILE_DIR'] ? { profileDir: process.env['BENCH_PROFILE_DIR'] } : {}),
  });
  const bare = startNode('bench/reads/bare-server.mjs', {});
  const adoptionPid = stack.pids()['adoption'];
  const gatewayPort = stack.gatewayPort ?? 0;
  const reader = gatewayReader(gatewayPort);
  const scale = [];
  /** @type {any[]} */
  const reads = [];
  let afterScale;
  let afterReads;
  /** @type {Awaited<ReturnType<typeof startFloor>> | undefined} */
  let floor;
  let reached = 0;
  /** @type {{ waitedMs: number, storeOpsPerSecond: number } | undefined} */
  let readsSettled;
  /** @type {{ ms: number, perSecond: number, statuses: Record<string, number> } | undefined} */
  let readsFirst;
  try {
    const barePort = await waitUntil(
      async () => {
        const port = /READY (\d+)/.exec(bare.stdout());
        return port ? Number(port[1]) : undefined;
      },
      'bare Fastify',
      bare.stderr,
    );
    if (WARM_UP_EVENTS > 0) {
      // Untimed, on another tenant: without it the first size's load was the one that ran on a
      // cold process (code not yet optimised), which no size has to do with.
      progress(`scale: warming up with ${WARM_UP_EVENTS} products of another tenant (untimed)`);
      const warm = await stack.tenantWithOwnerToken('Bench warm-up', 'ENTERPRISE');
      const warmed = await drain(
        stack,
        reader,
        { tenantId: warm.tenantId, bearer: () => warm.bearer },
        {
          from: 0,
          to: WARM_UP_EVENTS,
          budgetMs: (WARM_UP_EVENTS / DRAIN_MIN_RATE + 30) * 1_000,
          expectedPerSecond: DRAIN_TARGET,
          tripMs: 0,
        },
      );
      if (!warmed.complete) await stack.purgeEvents();
    }
    const made = await stack.tenantWithOwnerToken('Bench scale', 'ENTERPRISE');
    // Owner tokens: user sessions are not metered, so polling coverage meets no API quota.
    let bearer = made.bearer;
    const tenant = { tenantId: made.tenantId, bearer: () => bearer };
    for (const size of SIZES) {
      bearer = await stack.ownerToken(tenant.tenantId);
      if (reached < size) {
        // Untimed: the tenant is brought to the size, then the same timed load runs at every size.
        progress(`scale: filling to ${size} products (${size - reached}, untimed)`);
        const fill = await drain(stack, reader, tenant, {
          from: reached,
          to: size,
          budgetMs: ((size - reached) / DRAIN_MIN_RATE + 30) * 1_000,
          expectedPerSecond: DRAIN_TARGET,
          tripMs: 0,
        });
        if (!fill.complete) {
          await stack.purgeEvents();
          scale.push({ size, drain: fill });
          break;
        }
        reached = size;
        bearer = await stack.ownerToken(tenant.tenantId);
      }
      progress(`scale: timing ${DRAIN_EVENTS} new products at ${reached}`);
      const trip = await singleTrip(stack, reader, tenant, reached, TRIP_SAMPLES);
      const load = await drain(stack, reader, tenant, {
        from: trip.count,
        to: trip.count + DRAIN_EVENTS,
        budgetMs: (DRAIN_EVENTS / DRAIN_MIN_RATE + 30) * 1_000,
        expectedPerSecond: DRAIN_TARGET,
        tripMs: trip.tripMs,
      });
      progress(`scale: ${load.applied} applied at ${load.perSecond.toFixed(0)}/s`);
      if (!load.complete) {
        // What the budget left queued must not load the later phases.
        await stack.purgeEvents();
        scale.push({ size, drain: load });
        reached = await reader.products(bearer).catch(() => reached + load.applied);
        break;
      }
      reached = trip.count + DRAIN_EVENTS;
      bearer = await stack.ownerToken(tenant.tenantId);
      const pace = await paced(stack, reader, tenant, {
        from: reached,
        rate: PACED_RATE,
        seconds: PACED_SECONDS,
        pollMs: POLL_MS,
      });
      // A backlog the paced phase left is applied before the next phase, within the same floor.
      const backlogMs = (pace.events / DRAIN_MIN_RATE + 30) * 1_000;
      const settled = await settle(reader, bearer, reached + pace.events, backlogMs);
      if (settled < reached + pace.events) {
        await stack.purgeEvents();
        scale.push({ size, drain: load, paced: pace });
        reached = await reader.products(bearer).catch(() => settled);
        break;
      }
      reached = settled;
      progress(`scale: paced p50 ${pace.latency.p50.toFixed(0)} ms; state reads`);
      const state = await singleReads(reader, bearer, STATE_READS);
      scale.push({ size, drain: load, paced: pace, state, adoption: memory(adoptionPid) });
    }
    afterScale = { products: reached, ...memory(adoptionPid) };
    progress(`reads: making ${TENANTS} tenants`);
    const tenants = await manyTenants(stack, reader, gatewayPort, TENANTS, progress);
    const authorizations = await clientTokens(stack, tenants);
    const first = await firstPass(
      gatewayPort,
      authorizations,
      `/api/v1${READS[0] ?? '/tenant/adoption/state'}`,
    );
    readsFirst = first;
    progress(`reads: first pass ${first.perSecond} req/s ${JSON.stringify(first.statuses)}`);
    readsSettled = await settleBackground(stack.adminPorts, { budgetMs: 180_000 });
    progress(
      `reads: background settled after ${readsSettled.waitedMs} ms (${readsSettled.storeOpsPerSecond} store ops/s)`,
    );
    /** @param {string} label @param {Omit<Parameters<typeof hammer>[0], 'seconds' | 'connections'>} options */
    const measure = async (label, options) => {
      await hammer({ ...options, connections: CONNECTIONS, seconds: WARM_UP_SECONDS });
      const before = await scrapeCounts(stack.adminPorts);
      const measured = await hammer({ ...options, connections: CONNECTIONS, seconds: SECONDS });
      // Store operations and calls between services per request (the Redis and FerretDB round
      // trips behind each answer).
      const io = perRequest(before, await scrapeCounts(stack.adminPorts), measured.perSecond * SECONDS);
      const row = { case: label, ...measured, io };
      progress(
        `reads: ${label} ${row.perSecond} req/s, p99 ${row.p99} ms; per request ${JSON.stringify(io)}`,
      );
      return row;
    };
    reads.push(await measure('bare Fastify hello-world', { port: barePort, path: '/hello' }));
    // The same read with the gateway's I/O and none of our code, answering a real tenant's state.
    const answer = await reader.get('/tenant/adoption/state', authorizations[0] ?? '');
    floor = await startFloor(
      infra,
      JSON.parse(JSON.stringify(answer), (_key, value) => value ?? undefined),
    );
    reads.push({
      ...(await measure(FLOOR_CASE, { port: floor.port, path: '/state', authorizations })),
      floor: true,
    });
    await floor.stop();
    // And answering a few bytes: what the same I/O costs without a payload to carry.
    floor = await startFloor(infra, { companyId: String(answer?.companyId ?? ''), milestones: [] });
    reads.push({
      ...(await measure(SMALL_FLOOR_CASE, { port: floor.port, path: '/state', authorizations })),
      baseline: true,
    });
    await floor.stop();
    floor = undefined;
    for (const path of READS)
      reads.push(await measure(`GET ${path}`, { port: gatewayPort, path: `/api/v1${path}`, authorizations }));
    afterReads = {
      tenants: TENANTS,
      products: reached,
      ...memory(adoptionPid),
      heapUsedMb: await heapUsedMb(stack.adminPorts['adoption']),
    };
  } catch (error) {
    process.stderr.write(`${stack.logs().slice(-4_000)}\n`);
    throw error;
  } finally {
    await bare.stop();
    await floor?.stop();
    await stack.stop();
    await infra.stop?.();
  }
  const report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`,
    // Other work on the machine moves every number; the load averages say how much.
    loadAverage: { start: loadAtStart, end: loadavg().map((l) => +l.toFixed(2)) },
    answerReuseMs: process.env['GATEWAY_ANSWER_REUSE_MS'],
    settings: {
      sizes: SIZES,
      drainEvents: DRAIN_EVENTS,
      pacedRate: PACED_RATE,
      pacedSeconds: PACED_SECONDS,
      pollMs: POLL_MS,
    },
    scale,
    reads: {
      tenants: TENANTS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      first: readsFirst,
      settled: readsSettled,
      rows: reads,
    },
    memory: { afterScale, afterReads },
  };
  const failed = printReport(report);
  const out = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'adoption-scale.json'), `${JSON.stringify(report, null, 2)}\n`);
  return failed;
}

main().then(
  // The run measured: its exit status says whether every target was met.
  (failed) => process.exit(failed > 0 && process.env['BENCH_STRICT'] === '1' ? 1 : 0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
