#!/usr/bin/env node
/**
 * Reads through the gateway, the whole stack on this machine as `npm run up` runs it: identity,
 * entitlements, adoption and the gateway each in its own process (production wiring, mutual TLS,
 * the read models and caches), real FerretDB / NATS JetStream / Redis, and this load generator
 * (autocannon) in its own. Every read endpoint of issue #13 at 64 connections, 64 CORE tenants
 * with a short history each (OWNER tokens, one tenant per request in turn), beside a bare Fastify
 * hello-world in its own process measured in the same run. Prints req/s, p50/p99, the ratio to
 * bare Fastify and each process's CPU per request; writes bench/results/reads.json.
 *
 *   npm run build && node bench/reads/run.mjs
 *
 * BENCH_SECONDS (default 8) per case after 2 s of warm-up; BENCH_ENDPOINTS (comma-separated
 * path endings) measures only those; BENCH_PROFILE_DIR writes each service's CPU profile there.
 * Then GET /tenant/adoption/state of one tenant alone (all 64 connections): a short-history
 * tenant, and one with BENCH_PRIOR_EVENTS (default 100,000) prior events loaded in bulk as the
 * consumer would have left them (bench/adoption/history.mjs): a read's cost beside its history.
 * Uses MONGO_URL / NATS_URL / REDIS_URL when set, else starts its own servers (@tap/testkit).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { storedSummary } from '@tap/adoption';
import { startInfrastructure } from '@tap/testkit';
import { childPids, cpuMs, REPO_ROOT, startNode, waitUntil } from '../identity/processes.mjs';
import { loadHistory } from '../adoption/history.mjs';
import { hammer } from './load.mjs';
import { startStack } from './stack.mjs';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 64;
const TENANTS = 64;
const EVENTS_PER_TENANT = 20;
const SEED_TIMEOUT_MS = 120_000;
/** One more tenant, read alone beside one of the short-history tenants: its prior events. */
const PRIOR_EVENTS = Number(process.env['BENCH_PRIOR_EVENTS'] ?? 100_000);
const TARGET = { perSecond: 2_500, p99: 50, ratio: 0.05 };

const PLAN = {
  title: 'Get connected',
  targetDate: new Date(Date.now() + 90 * 86_400_000).toISOString(),
  objectives: [{ label: 'Set up', milestoneKeys: ['company_profile_completed', 'first_product_created'] }],
};
const CASES = [
  { path: '/api/v1/tenant/adoption/state' },
  { path: '/api/v1/tenant/adoption/next-best-action' },
  { path: '/api/v1/tenant/adoption/coverage' },
  { path: '/api/v1/tenant/adoption/risk-signals' },
  { path: '/api/v1/tenant/adoption/health-explanation' },
  { path: '/api/v1/tenant/adoption/success-plan' },
  { path: '/api/v1/entitlements/usage' },
  {
    method: 'POST',
    path: '/api/v1/entitlements/can',
    body: JSON.stringify({ action: 'BULK_UPLOAD', resourceCount: 10 }),
  },
  { path: '/api/v1/entitlements/upgrade-context?capability=API_ACCESS' },
];
const ONLY = process.env['BENCH_ENDPOINTS']?.split(',');
const MEASURED = ONLY ? CASES.filter((c) => ONLY.some((o) => c.path.includes(o))) : CASES;

/**
 * @param {string} tenantId @param {import('@tap/contracts').ProductEventKind} type
 * @param {Record<string, string>} subject
 * @returns {import('@tap/contracts').ProductEvent}
 */
function event(tenantId, type, subject) {
  return { id: randomUUID(), type, tenantId, occurredAt: new Date().toISOString(), subject, data: {} };
}

/** A tenant's short history: its profile, products, a connection and a user. */
function history(/** @type {string} */ tenantId) {
  return [
    event(tenantId, 'company.profile_completed', {}),
    ...Array.from({ length: EVENTS_PER_TENANT - 3 }, (_, i) =>
      event(tenantId, 'product.created', { productId: `p${i}` }),
    ),
    event(tenantId, 'connection.accepted', { connectionId: 'c1' }),
    event(tenantId, 'user.joined', { userId: 'u1' }),
  ];
}

/**
 * Commands the database answered so far, by name (FerretDB's serverStatus metrics; MongoDB's
 * opcounters otherwise): what a read costs the store shows as commands per request.
 * @param {import('mongodb').Db} admin
 * @returns {Promise<Record<string, number>>}
 */
async function databaseCommands(admin) {
  const status = await admin.command({ serverStatus: 1 });
  /** @type {Record<string, number>} */
  const counts = {};
  for (const [name, value] of Object.entries(status['metrics']?.commands ?? {}))
    counts[name] = Number(/** @type {{ total?: unknown }} */ (value).total ?? 0);
  if (Object.keys(counts).length === 0)
    for (const [name, value] of Object.entries(status['opcounters'] ?? {})) counts[name] = Number(value);
  return counts;
}

/**
 * Runs a case and the CPU each process spent on it.
 * @param {string} label @param {Record<string, number | undefined>} pids @param {Parameters<typeof hammer>[0]} options
 * @param {import('mongodb').Db} admin
 */
async function measured(label, pids, options, admin) {
  await hammer({ ...options, seconds: WARM_UP_SECONDS });
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const commandsBefore = await databaseCommands(admin);
  const result = await hammer(options);
  const commandsAfter = await databaseCommands(admin);
  const total = result.perSecond * options.seconds;
  /** @type {Record<string, number>} */
  const cpuPerRequest = {};
  for (const [name, pid] of Object.entries(pids))
    cpuPerRequest[name] = +((cpuMs(pid) - (before[name] ?? 0)) / Math.max(1, total)).toFixed(3);
  /** @type {Record<string, number>} */
  const commandsPerRequest = {};
  for (const [command, count] of Object.entries(commandsAfter)) {
    const delta = count - (commandsBefore[command] ?? 0);
    if (delta > 0) commandsPerRequest[command] = +(delta / Math.max(1, total)).toFixed(3);
  }
  const row = {
    case: label,
    ...result,
    cpuMsPerRequest: cpuPerRequest,
    databaseCommandsPerRequest: commandsPerRequest,
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main() {
  const infra = await startInfrastructure({});
  const namespace = `bench_reads_${process.pid}`;
  const profileDir = process.env['BENCH_PROFILE_DIR'];
  const stack = await startStack(infra, namespace, profileDir ? { profileDir } : {});
  const bare = startNode('bench/reads/bare-server.mjs', {});
  /** @type {any[]} */
  const rows = [];
  try {
    const barePort = await waitUntil(
      async () => {
        const port = /READY (\d+)/.exec(bare.stdout());
        return port ? Number(port[1]) : undefined;
      },
      'bare Fastify',
      bare.stderr,
    );
    const port = stack.gatewayPort;
    const tenants = [];
    for (let i = 0; i < TENANTS; i += 8)
      tenants.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, (_, j) => stack.tenantWithOwnerToken(`Bench ${i + j}`, 'CORE')),
        )),
      );
    for (const t of tenants) for (const e of history(t.tenantId)) await stack.publish(e);
    // Applied when adoption's summary counts every event (read past every cache, in its database).
    const aggregates = stack.database('adoption').collection('aggregates');
    const ids = tenants.map((t) => t.tenantId);
    const deadline = Date.now() + SEED_TIMEOUT_MS;
    let applied = 0;
    while (Date.now() < deadline) {
      // The summary is stored packed (docs/adoption-model.md §17): decoded here, as adoption reads it.
      const docs = await aggregates
        .find({ _id: { $in: /** @type {any} */ (ids) } }, { projection: { summary: 1 } })
        .toArray();
      applied = docs.filter((d) => storedSummary(d['summary'])?.applied === EVENTS_PER_TENANT).length;
      if (applied === TENANTS) break;
      await sleep(250);
    }
    if (applied < TENANTS)
      console.log(`warning: ${TENANTS - applied} tenant histories not applied before the reads`);
    // Every tenant with a success plan, so its read is the plan's, not an empty answer.
    for (const t of tenants) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/tenant/adoption/success-plan`, {
        method: 'POST',
        headers: { authorization: t.bearer, 'content-type': 'application/json' },
        body: JSON.stringify(PLAN),
      });
      if (!response.ok) throw new Error(`success plan: ${response.status} ${await response.text()}`);
    }
    const authorizations = tenants.map((t) => t.bearer);
    const long = await stack.tenantWithOwnerToken('Bench long history', 'CORE');
    if (PRIOR_EVENTS > 0) await loadHistory(stack.database('adoption'), PRIOR_EVENTS, long.tenantId);
    const admin = stack.database('identity').client.db('admin');
    const servicePids = stack.pids();
    const pids = {
      ...servicePids,
      bare: bare.child.pid,
      ferretdb: childPids(process.pid, 'ferretdb')[0],
      redis: childPids(process.pid, 'redis-server')[0],
      nats: childPids(process.pid, 'nats-server')[0],
    };
    rows.push(
      await measured(
        'bare Fastify hello-world',
        pids,
        {
          port: barePort,
          path: '/hello',
          connections: CONNECTIONS,
          seconds: SECONDS,
        },
        admin,
      ),
    );
    for (const c of MEASURED)
      rows.push(
        await measured(
          `${c.method ?? 'GET'} ${c.path.replace('/api/v1', '')}`,
          pids,
          {
            port: port ?? 0,
            ...c,
            authorizations,
            connections: CONNECTIONS,
            seconds: SECONDS,
          },
          admin,
        ),
      );
    if (!ONLY || ONLY.includes('history'))
      for (const [label, bearer] of [
        [`${EVENTS_PER_TENANT} events`, tenants[0]?.bearer ?? ''],
        [`${PRIOR_EVENTS.toLocaleString('en')} prior events`, long.bearer],
      ])
        rows.push(
          await measured(
            `GET /tenant/adoption/state, one tenant, ${label}`,
            pids,
            {
              port: port ?? 0,
              path: '/api/v1/tenant/adoption/state',
              authorizations: [bearer ?? ''],
              connections: CONNECTIONS,
              seconds: SECONDS,
            },
            admin,
          ),
        );
  } finally {
    await bare.stop();
    await stack.stop();
    await infra.stop?.();
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, Node ${process.version}`;
  console.log(`\nmachine: ${machine}`);
  const baseline = rows[0]?.perSecond ?? 1;
  console.log(
    `${'case (64 connections)'.padEnd(66)} ${'req/s'.padStart(7)} ${'ratio'.padStart(6)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}  met  CPU ms/request (gateway adoption entitlements identity redis ferretdb)`,
  );
  for (const r of rows) {
    const ratio = r.perSecond / baseline;
    const met =
      r === rows[0]
        ? '   '
        : r.perSecond >= TARGET.perSecond && r.p99 <= TARGET.p99 && ratio >= TARGET.ratio
          ? 'yes'
          : 'no ';
    const non200 = Object.entries(r.statuses)
      .filter(([code]) => code !== '200')
      .map(([code, n]) => `${n}×${code}`)
      .join(' ');
    const cpu = ['gateway', 'adoption', 'entitlements', 'identity', 'redis', 'ferretdb']
      .map((n) => (r.cpuMsPerRequest[n] ?? 0).toFixed(3))
      .join(' ');
    console.log(
      `${r.case.padEnd(66)} ${String(r.perSecond).padStart(7)} ${(ratio * 100).toFixed(1).padStart(5)}% ${String(r.p50).padStart(6)} ${String(r.p99).padStart(6)}  ${met}  ${r === rows[0] ? `bare ${(r.cpuMsPerRequest['bare'] ?? 0).toFixed(3)}` : cpu}${non200 ? `  (${non200})` : ''}${r.errors ? ` ${r.errors} errors` : ''}`,
    );
  }
  console.log(
    `targets: ≥ ${TARGET.perSecond} req/s, p99 ≤ ${TARGET.p99} ms, ≥ ${TARGET.ratio * 100}% of bare Fastify`,
  );
  const out = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'reads.json'), `${JSON.stringify({ machine, seconds: SECONDS, rows }, null, 2)}\n`);
  process.exit(0);
}

await main();
