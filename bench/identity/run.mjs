#!/usr/bin/env node
/**
 * Identity benchmark, the whole stack on this machine: identity (its own process, real
 * MongoDB-wire and Redis), the gateway (its own process, production wiring) and this load
 * generator. In one run it measures
 *   - POST /api/v1/oauth/token per second (client credentials grants),
 *   - POST /api/v1/auth/refresh per second (rotation with reuse detection),
 *   - the per-request cost of the gateway's token check: the same route with and without it,
 * and prints ratios: against Keycloak's published 120 grants and 120 refreshes per second per
 * vCPU, and against the unchecked route measured in the same run.
 *
 *   npm run build && node bench/identity/run.mjs
 *
 * Uses MONGO_URL / REDIS_URL when set, else starts its own servers (@tap/testkit).
 * BENCH_SECONDS (default 6) is the measured time per case, split over three interleaved rounds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { ensureDevPki, startInfrastructure } from '@tap/testkit';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { databaseCases, hashingCosts } from './baselines.mjs';
import { arrange } from './fixtures.mjs';
import { measure, send, summarize } from './http-load.mjs';
import { printReport } from './print.mjs';
import { childPids, cpuMs, freePort, REPO_ROOT, startNode, waitUntil } from './processes.mjs';

/**
 * The client address of caller `i` (the bench gateway trusts one proxy hop): spread so the
 * per-address limits of the token and refresh endpoints do not turn the rows into 429s.
 * @param {number} i
 */
function addressOf(i) {
  return `198.18.${(i >> 8) & 255}.${i & 255}`;
}

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 6);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const ROUNDS = 3;
const WARM_UP_SECONDS = 1;
const OPERATOR_TOKEN = 'bench-operator-token-0123456789abcdef-0123';
const KEY_ENCRYPTION_SECRET = 'bench-key-encryption-secret-0123456789abcdef';
/**
 * OAuth clients the token case spreads over, so the per-client limit (60/min) never binds. Not
 * more than needed: FerretDB's SQLite backend scans a whole collection even for an `_id` lookup
 * (see docs/identity.md), so its cost per grant grows with the number of clients.
 */
const CLIENTS = Number(process.env['BENCH_CLIENTS'] ?? 200);
const PROFILE_DIR = process.env['BENCH_PROFILE_DIR'];

async function main() {
  const infra = await startInfrastructure({});
  const database = `bench_identity_${process.pid}`;
  const keyPrefix = `bench-${process.pid}`;
  const grpcPort = await freePort();
  const httpPort = await freePort();
  const identityAddress = `127.0.0.1:${grpcPort}`;
  // Every gRPC hop is mutual TLS: certificates for identity, the gateway and the operator.
  const pkiDir = mkdtempSync(join(tmpdir(), 'bench-pki-'));
  const pki = await ensureDevPki(pkiDir);
  /** @param {string} name */
  const tlsEnv = (name) => ({
    GRPC_TLS_CERT_FILE: join(pki[name] ?? '', 'tls.crt'),
    GRPC_TLS_KEY_FILE: join(pki[name] ?? '', 'tls.key'),
    GRPC_TLS_CA_FILE: join(pki[name] ?? '', 'ca.crt'),
  });
  // BENCH_PROFILE_DIR: CPU profiles of identity and the gateway, for finding where time goes.
  const profileArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const identity = startNode(
    'services/identity/dist/main.js',
    {
      MONGO_URL: infra.mongoUrl,
      REDIS_URL: infra.redisUrl,
      IDENTITY_MONGO_DB: database,
      IDENTITY_GRPC_PORT: String(grpcPort),
      IDENTITY_HTTP_PORT: String(httpPort),
      OPERATOR_TOKEN,
      KEY_ENCRYPTION_SECRET,
      LOG_LEVEL: 'warn',
      ...tlsEnv('identity'),
    },
    profileArgs,
  );
  const gateway = startNode(
    'bench/identity/gateway-server.mjs',
    {
      IDENTITY_GRPC_ADDRESS: identityAddress,
      REDIS_URL: infra.redisUrl,
      BENCH_KEY_PREFIX: keyPrefix,
      ...tlsEnv('gateway'),
    },
    profileArgs,
  );
  const admin = new Redis(infra.redisUrl);
  try {
    await waitUntil(
      async () => ((await fetch(`http://127.0.0.1:${httpPort}/readyz`)).ok ? true : undefined),
      'identity',
      identity.stderr,
    );
    const [port, uncachedPort] = await waitUntil(
      async () => {
        const ports = /READY (\d+) (\d+)/.exec(gateway.stdout());
        return ports ? [Number(ports[1]), Number(ports[2])] : undefined;
      },
      'gateway',
      gateway.stderr,
    );
    const { clients, sessions } = await arrange({
      identityAddress,
      operatorToken: OPERATOR_TOKEN,
      operatorTls: {
        certFile: tlsEnv('operator').GRPC_TLS_CERT_FILE,
        keyFile: tlsEnv('operator').GRPC_TLS_KEY_FILE,
        caFile: tlsEnv('operator').GRPC_TLS_CA_FILE,
      },
      gatewayPort: port,
      clientCount: CLIENTS,
      sessionCount: CONCURRENCY,
    });
    const mongo = new MongoClient(infra.mongoUrl);
    const cases = [
      ...benchCases(port, uncachedPort, clients, sessions),
      ...(await databaseCases(mongo.db(database), clients, CONCURRENCY)),
    ];

    for (const c of cases) await measure(c.call, CONCURRENCY, WARM_UP_SECONDS);
    const pids = {
      gateway: gateway.child.pid,
      identity: identity.child.pid,
      // Present when this run started its own servers (not when MONGO_URL / REDIS_URL were given).
      ferretdb: childPids(process.pid, 'ferretdb')[0],
      redis: childPids(process.pid, 'redis-server')[0],
    };
    const concurrent = await inTurns(cases, CONCURRENCY, pids, admin);
    const checkCases = cases.filter((c) => c.name.startsWith('route'));
    await mongo.close();
    const sequential = await inTurns(checkCases, 1, pids, admin);
    const report = {
      machine: `${cpus().length} vCPU, ${cpus()[0]?.model ?? 'unknown CPU'}`,
      vcpus: cpus().length,
      loadAverage: loadavg()[0] ?? 0,
      node: process.version,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      concurrent: cases.map((c, i) => ({ name: c.name, ...concurrent[i] })),
      sequential: checkCases.map((c, i) => ({ name: c.name, ...sequential[i] })),
      hashing: await hashingCosts(),
    };
    printReport(report);
    const out = join(REPO_ROOT, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'identity.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await gateway.stop();
    await identity.stop();
    rmSync(pkiDir, { recursive: true, force: true });
    const mongo = new MongoClient(infra.mongoUrl);
    await mongo
      .db(database)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
    await admin
      .eval(
        "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 0",
        0,
        `${keyPrefix}*`,
      )
      .catch(() => undefined);
    admin.disconnect();
    await infra.stop();
  }
}

/**
 * @param {number} port
 * @param {number} uncachedPort the same gateway without the verification cache
 * @param {Array<{ clientId: string; clientSecret: string }>} clients
 * @param {Array<{ accessToken: string; refreshToken: string }>} sessions
 */
function benchCases(port, uncachedPort, clients, sessions) {
  let nextClient = 0;
  const bearer = sessions.map((s) => ({ authorization: `Bearer ${s.accessToken}` }));
  const chains = sessions.map((s) => s.refreshToken);
  return [
    {
      name: 'POST /oauth/token',
      call: async () => {
        const client = clients[(nextClient += 1) % clients.length];
        const body = new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client?.clientId ?? '',
          client_secret: client?.clientSecret ?? '',
        }).toString();
        return (
          await send(port, {
            method: 'POST',
            path: '/api/v1/oauth/token',
            // One documentation address (RFC 5737 / 198.18/15) per client, as separate integrators
            // would come from: the per-address limits are not what this row measures.
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-forwarded-for': addressOf(nextClient),
            },
            body,
          })
        ).status;
      },
    },
    {
      name: 'POST /auth/refresh',
      // Each caller owns one session and refreshes it again and again, as a client would.
      /** @param {number} worker */
      call: async (worker) => {
        const response = await send(port, {
          method: 'POST',
          path: '/api/v1/auth/refresh',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf(worker) },
          body: JSON.stringify({ refreshToken: chains[worker] }),
        });
        if (response.status === 200) chains[worker] = JSON.parse(response.text).data.refreshToken;
        return response.status;
      },
    },
    {
      name: 'route, token check',
      /** @param {number} worker */
      call: async (worker) =>
        (
          await send(port, {
            method: 'GET',
            path: '/bench/entitlements/usage',
            headers: bearer[worker % bearer.length],
          })
        ).status,
    },
    {
      name: 'route, check, no cache',
      /** @param {number} worker */
      call: async (worker) =>
        (
          await send(uncachedPort, {
            method: 'GET',
            path: '/bench/entitlements/usage',
            headers: bearer[worker % bearer.length],
          })
        ).status,
    },
    {
      name: 'route, no check',
      /** @param {number} worker */
      call: async (worker) =>
        (
          await send(port, {
            method: 'GET',
            path: '/bench/unchecked',
            headers: bearer[worker % bearer.length],
          })
        ).status,
    },
  ];
}

/**
 * The cases take turns, round after round, so drift and outside load spread over all of them.
 * Besides rates and latencies it records the CPU the gateway and identity processes used and
 * Redis's EXISTS calls (the revocation check) per request.
 * @param {Array<{ name: string; call: (worker: number) => Promise<number> }>} cases
 * @param {number} callers
 * @param {{ gateway: number | undefined; identity: number | undefined; ferretdb: number | undefined; redis: number | undefined }} pids
 * @param {Redis} admin
 */
async function inTurns(cases, callers, pids, admin) {
  const totals = cases.map(() => ({
    latencies: /** @type {number[]} */ ([]),
    statuses: /** @type {Record<string, number>} */ ({}),
    elapsedMs: 0,
    cpu: { gateway: 0, identity: 0, ferretdb: 0, redis: 0 },
    redisExistsCalls: 0,
    redisExistsMicros: 0,
  }));
  const names = /** @type {const} */ (['gateway', 'identity', 'ferretdb', 'redis']);
  const sampleCpu = () => Object.fromEntries(names.map((n) => [n, cpuMs(pids[n])]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, c] of cases.entries()) {
      const total = totals[i];
      if (!total) continue;
      const before = { cpu: sampleCpu(), exists: await existsStats(admin) };
      const run = await measure(c.call, callers, SECONDS / ROUNDS);
      const exists = await existsStats(admin);
      const after = sampleCpu();
      for (const n of names) total.cpu[n] += (after[n] ?? NaN) - (before.cpu[n] ?? NaN);
      total.redisExistsCalls += exists.calls - before.exists.calls;
      total.redisExistsMicros += exists.micros - before.exists.micros;
      total.latencies.push(...run.latencies);
      total.elapsedMs += run.elapsedMs;
      for (const [status, count] of Object.entries(run.statuses))
        total.statuses[status] = (total.statuses[status] ?? 0) + count;
    }
  }
  return totals.map((t) => {
    const summary = summarize(t);
    return {
      ...summary,
      cpuMicrosPerRequest: Object.fromEntries(names.map((n) => [n, (t.cpu[n] * 1_000) / summary.requests])),
      redisExistsPerRequest: t.redisExistsCalls / summary.requests,
      redisMicrosPerExists: t.redisExistsCalls > 0 ? t.redisExistsMicros / t.redisExistsCalls : 0,
    };
  });
}

/** @param {Redis} admin */
async function existsStats(admin) {
  const info = await admin.info('commandstats');
  const match = /cmdstat_exists:calls=(\d+),usec=(\d+)/.exec(info);
  return { calls: Number(match?.[1] ?? 0), micros: Number(match?.[2] ?? 0) };
}

await main();
