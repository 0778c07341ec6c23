#!/usr/bin/env node
/**
 * Adoption reads through the gateway, on this machine, real FerretDB / NATS JetStream / Redis
 * (@tap/testkit): entitlements, adoption and the gateway built in this process (bench/adoption/
 * bed.mjs plus a gateway), the load generator beside them. Every adoption read endpoint at 64
 * connections, 64 tenants with a short history each, beside a bare Fastify hello-world measured
 * in the same run. Prints req/s, p50/p99 and the ratio to bare Fastify.
 *
 *   npm run build && node bench/adoption-reads/run.mjs
 *
 * BENCH_SECONDS (default 6): measured seconds per case. BENCH_READ_MODEL_TTL_MS: the adoption
 * read-model TTL (0 turns the aggregate cache off, for a comparison). Every loop is bounded.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import Fastify from 'fastify';
import { buildApp as buildGateway, createServiceClients, redisSessionRevocations } from '@tap/gateway';
import { tlsFromPem } from '@tap/grpc-kit';
import { createRateLimiter } from '@tap/ratelimit';
import { Readiness } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { startInfrastructure, testIdentity } from '@tap/testkit';
import { until } from '../adoption/stats.mjs';
import { openBed } from '../adoption/bed.mjs';
import { measure, send, summarize } from '../identity/http-load.mjs';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 6);
const CONNECTIONS = 64;
// One CORE tenant per connection, OWNER user tokens: the gateway's tenant quotas meter
// integrator (client-credentials) traffic only (docs/rate-limiting.md), so none binds here.
const TENANTS = CONNECTIONS;
const EVENTS_PER_TENANT = 20;
const SEED_WAIT_MS = 120_000;
const ALL_ENDPOINTS = [
  '/api/v1/tenant/adoption/state',
  '/api/v1/tenant/adoption/next-best-action',
  '/api/v1/tenant/adoption/coverage',
  '/api/v1/tenant/adoption/risk-signals',
  '/api/v1/tenant/adoption/health-explanation',
  '/api/v1/tenant/adoption/success-plan',
];
// BENCH_ENDPOINTS: a comma-separated part of the paths, to measure only those (profiling).
const ONLY = process.env['BENCH_ENDPOINTS']?.split(',');
const ENDPOINTS = ONLY ? ALL_ENDPOINTS.filter((p) => ONLY.some((o) => p.endsWith(o))) : ALL_ENDPOINTS;

function event(tenantId, type, subject) {
  return { id: randomUUID(), type, tenantId, occurredAt: new Date().toISOString(), subject, data: {} };
}

/** A tenant's short history: its profile, products, a connection and a user. */
function history(tenantId) {
  return [
    event(tenantId, 'company.profile_completed', {}),
    ...Array.from({ length: EVENTS_PER_TENANT - 3 }, (_, i) =>
      event(tenantId, 'product.created', { productId: `p${i}` }),
    ),
    event(tenantId, 'connection.accepted', { connectionId: 'c1' }),
    event(tenantId, 'user.joined', { userId: 'u1' }),
  ];
}

async function readCase(label, call) {
  await measure(call, CONNECTIONS, 1); // warm-up
  const s = summarize(await measure(call, CONNECTIONS, SECONDS));
  const row = {
    case: label,
    perSecond: Math.round(s.perSecond),
    p50: +s.p50.toFixed(1),
    p99: +s.p99.toFixed(1),
    statuses: s.statuses,
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main() {
  const infra = await startInfrastructure({});
  const prefix = `bench_adoreads_${process.pid}`;
  const ttl = process.env['BENCH_READ_MODEL_TTL_MS'];
  const bed = await openBed(infra, prefix, ttl === undefined ? {} : { readModelTtlMs: Number(ttl) });
  const logger = createLogger({ service: 'adoption-reads-bench', level: 'silent' });
  const clients = createServiceClients(
    {
      identity: '127.0.0.1:9',
      adoption: bed.front.adoptionAddress,
      entitlements: bed.front.entitlementsAddress,
    },
    tlsFromPem(await testIdentity('gateway')),
  );
  const gateway = await buildGateway({
    config: { bodyLimitBytes: 64 * 1024, trustProxyHops: 0 },
    clients,
    verifier: bed.front.verifier,
    readiness: new Readiness(),
    logger,
    revocations: redisSessionRevocations(bed.front.redis, `${prefix}:revoked`),
    auth: { limiter: createRateLimiter({ redis: bed.front.redis, keyPrefix: `${prefix}:rl` }) },
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const port = /** @type {{ port: number }} */ (gateway.server.address()).port;
  const stopNotices = bed.adoption.startReadModelNotices(bed.nc);
  const consumer = await bed.adoption.startConsumer(bed.nc, {});
  const bare = Fastify();
  /** @type {any[]} */
  const results = [];
  try {
    const tenants = Array.from({ length: TENANTS }, () => randomUUID());
    for (const t of tenants) await bed.setTier(t, 'CORE');
    for (const t of tenants) for (const e of history(t)) await bed.publisher.publish(e);
    const aggregates = bed.db.collection('aggregates');
    const seeded = await until(
      async () =>
        (await aggregates.countDocuments({
          _id: { $in: /** @type {any} */ (tenants) },
          'summary.applied': EVENTS_PER_TENANT,
        })) === TENANTS,
      SEED_WAIT_MS,
      200,
    );
    if (!seeded) console.log('warning: not every tenant history was applied before the reads');
    const tokens = await Promise.all(tenants.map((t) => bed.bearer(t)));
    const auth = (w) => ({
      authorization: tokens[(w * 7 + Math.floor(performance.now())) % tokens.length] ?? '',
    });
    // Every endpoint once before any is measured: channels, TLS sessions, JIT and the tenants'
    // first reads (each remembers its tier: one write) are not what a steady read costs.
    for (const path of ENDPOINTS)
      await measure(
        async (w) => (await send(port, { method: 'GET', path, headers: auth(w) })).status,
        CONNECTIONS,
        2,
      );
    bare.get('/hello', async () => ({ hello: 'world' }));
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const barePort = /** @type {{ port: number }} */ (bare.server.address()).port;
    results.push(
      await readCase(
        'bare Fastify hello-world',
        async () => (await send(barePort, { method: 'GET', path: '/hello' })).status,
      ),
    );
    for (const path of ENDPOINTS)
      results.push(
        await readCase(
          `GET ${path.replace('/api/v1', '')}`,
          async (w) => (await send(port, { method: 'GET', path, headers: auth(w) })).status,
        ),
      );
  } finally {
    await bare.close();
    await consumer.stop();
    stopNotices();
    await gateway.close();
    clients.close();
    await bed.close();
    await infra.stop?.();
  }
  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; adoption read-model TTL ${ttl ?? 'default (1 s)'}`,
  );
  const baseline = results[0]?.perSecond ?? 1;
  for (const r of results.slice(1))
    console.log(
      `${r.case}: ${r.perSecond} req/s = ${((r.perSecond / baseline) * 100).toFixed(1)}% of bare Fastify, p99 ${r.p99} ms (targets ≥ 2,500 req/s, p99 ≤ 50 ms)`,
    );
  process.exit(0);
}

await main();
