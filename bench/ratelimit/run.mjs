#!/usr/bin/env node
/**
 * Rate-limit check benchmark: @tap/ratelimit (one script, all windows) against
 * rate-limiter-flexible's RateLimiterRedis (one limiter, so one round trip, per window), on the
 * same Redis in the same run. Two windows per check (per minute + per day), as the gateway's
 * API quotas. Prints checks/s and per-check latency (sequential and with concurrent callers),
 * ratios ours / baseline, and Redis round trips per check counted on the client.
 *
 *   npm run build -w @tap/ratelimit && node bench/ratelimit/run.mjs
 *
 * Starts its own redis-server on a free loopback port unless REDIS_URL is set.
 * BENCH_SECONDS (default 2.5) is the measured time per case and mode, split over four rounds;
 * with warm-up and round-trip counting the whole run takes about 30 s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createRateLimitRedis } from '@tap/ratelimit';
import { benchCases, prefill } from './cases.mjs';
import { measure, summarize } from './measure.mjs';
import { printReport } from './print.mjs';
import { startRedis } from './redis-server.mjs';
import { countRoundTrips } from './round-trips.mjs';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2.5);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const ROUNDS = 4;
const WARM_UP_SECONDS = 0.75;
const TRIP_COUNT_CHECKS = 500;

async function main() {
  const server = process.env['REDIS_URL'] ? undefined : await startRedis();
  const url = process.env['REDIS_URL'] ?? server?.url ?? '';
  const ourRedis = createRateLimitRedis(url, { commandTimeout: 2_000 });
  const theirRedis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2_000,
  });
  const admin = new Redis(url);
  await Promise.all([ourRedis, theirRedis, admin].map(waitReady));
  const prefix = `bench_${process.pid}`;
  try {
    await prefill(admin, prefix);
    const cases = benchCases(ourRedis, theirRedis, prefix);
    // Every case warms up first (JIT, connections, script cache); then the cases take turns,
    // in four rounds, so neither order nor drift favours one of them.
    for (const c of cases) await measure(c.check, CONCURRENCY, WARM_UP_SECONDS);
    /** @type {Array<{ roundTrips: number; redisCommands: number; redisMicros: number }>} */
    const trips = [];
    for (const c of cases) trips.push(await countRoundTrips(c.client, admin, c.check, TRIP_COUNT_CHECKS));
    const sequential = await measureInTurns(cases, 1);
    const concurrent = await measureInTurns(cases, CONCURRENCY);
    const rows = cases.map((c, i) => ({
      name: c.name,
      trips: trips[i],
      sequential: sequential[i],
      concurrent: concurrent[i],
    }));
    const report = {
      machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}`,
      // Other work on the machine moves every number; the 1-minute load average says how much.
      loadAverage: loadavg()[0] ?? 0,
      node: process.version,
      redis: await redisVersion(admin),
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      rows,
    };
    printReport(report);
    const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'ratelimit.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await admin.eval(
      "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 0",
      0,
      `${prefix}*`,
    );
    ourRedis.disconnect();
    theirRedis.disconnect();
    admin.disconnect();
    await server?.stop();
  }
}

/**
 * @param {ReadonlyArray<{ check: (i: number) => Promise<unknown> }>} cases
 * @param {number} callers
 */
async function measureInTurns(cases, callers) {
  const samples = cases.map(() => ({ latencies: /** @type {number[]} */ ([]), elapsedMs: 0 }));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, c] of cases.entries()) {
      const run = await measure(c.check, callers, SECONDS / ROUNDS);
      const sample = samples[i];
      if (!sample) continue;
      for (const latency of run.latencies) sample.latencies.push(latency);
      sample.elapsedMs += run.elapsedMs;
    }
  }
  return samples.map(summarize);
}

/** @param {Redis} client */
async function waitReady(client) {
  if (client.status === 'ready') return;
  await new Promise((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
  });
}

/** @param {Redis} admin */
async function redisVersion(admin) {
  const info = await admin.info('server');
  return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
}

await main();
