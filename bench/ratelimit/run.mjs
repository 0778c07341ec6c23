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
 * BENCH_SECONDS (default 2.5) is the measured time per case; the whole run stays under ~40 s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { counterKey, createRateLimiter, createRateLimitRedis, resolveRule } from '@tap/ratelimit';
import { startRedis } from './redis-server.mjs';
import { measure, summarize } from './measure.mjs';
import { countRoundTrips } from './round-trips.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2.5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const TENANTS = 1_000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// Limits no tenant reaches: the benchmark measures the cost of a check, not of refusals.
const HUGE = 1_000_000_000;

const ours2 = [
  { name: 'api-per-minute', limit: HUGE, windowMs: MINUTE, onRedisDown: 'open' },
  { name: 'api-per-day', limit: HUGE, windowMs: DAY, subWindows: 24, onRedisDown: 'open' },
];
const ours4 = [
  { name: 'api-per-second', limit: HUGE, windowMs: 1_000, subWindows: 10, onRedisDown: 'open' },
  ...ours2,
  { name: 'api-per-hour', limit: HUGE, windowMs: 60 * MINUTE, onRedisDown: 'open' },
];

async function main() {
  const server = process.env.REDIS_URL ? undefined : await startRedis();
  const url = process.env.REDIS_URL ?? server.url;
  const ourRedis = createRateLimitRedis(url, { commandTimeout: 2_000 });
  const theirRedis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 2_000 });
  const admin = new Redis(url);
  await Promise.all([ourRedis, theirRedis, admin].map((client) => waitReady(client)));
  try {
    const prefix = `bench_${process.pid}`;
    await prefill(admin, prefix);
    const limiter = createRateLimiter({ redis: ourRedis, keyPrefix: prefix, timeoutMs: 2_000 });
    const minute = new RateLimiterRedis({ storeClient: theirRedis, keyPrefix: `${prefix}_rlf_m`, points: HUGE, duration: 60 });
    const day = new RateLimiterRedis({ storeClient: theirRedis, keyPrefix: `${prefix}_rlf_d`, points: HUGE, duration: 86_400 });

    const tenant = (i) => `tenant-${i % TENANTS}`;
    const cases = [
      { name: 'ours, 2 windows (1 script)', client: ourRedis, check: (i) => limiter.consume(tenant(i), ours2) },
      {
        name: 'rlf, 2 limiters in sequence',
        client: theirRedis,
        check: async (i) => {
          await minute.consume(tenant(i));
          await day.consume(tenant(i));
        },
      },
      {
        name: 'rlf, 2 limiters in parallel',
        client: theirRedis,
        check: (i) => Promise.all([minute.consume(tenant(i)), day.consume(tenant(i))]),
      },
      { name: 'ours, 4 windows (1 script)', client: ourRedis, check: (i) => limiter.consume(tenant(i), ours4) },
    ];

    const rows = [];
    for (const c of cases) {
      const trips = await countRoundTrips(c.client, admin, c.check, 500);
      const sequential = await measure(c.check, 1, SECONDS);
      const concurrent = await measure(c.check, CONCURRENCY, SECONDS);
      rows.push({ name: c.name, trips, sequential: summarize(sequential), concurrent: summarize(concurrent) });
    }
    const report = { machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}`, node: process.version, redis: await redisVersion(admin), concurrency: CONCURRENCY, seconds: SECONDS, rows };
    print(report);
    const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'ratelimit.json'), `${JSON.stringify(report, null, 2)}\n`);
    await admin.eval("for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 0", 0, `${prefix}*`);
  } finally {
    ourRedis.disconnect();
    theirRedis.disconnect();
    admin.disconnect();
    await server?.stop();
  }
}

/**
 * Gives every tenant a full minute of history (61 sub-window fields) and a full day (25), as a
 * tenant busy all day would have: the script's cost grows with the fields it reads, so a
 * benchmark over fresh keys would flatter it.
 */
async function prefill(admin, prefix) {
  const [seconds] = await admin.time();
  const now = Number(seconds) * 1_000;
  const pipeline = admin.pipeline();
  for (let t = 0; t < TENANTS; t += 1) {
    for (const rule of ours2.map(resolveRule)) {
      const key = counterKey(prefix, `tenant-${t}`, rule);
      const current = Math.floor(now / rule.subWindowMs);
      const fields = {};
      for (let index = current - rule.subWindows; index <= current; index += 1) fields[index] = 1;
      pipeline.hset(key, fields).pexpire(key, rule.windowMs * 2);
    }
  }
  await pipeline.exec();
}

function print(report) {
  const pad = (value, width) => String(value).padStart(width);
  const base = (name) => report.rows.find((row) => row.name === name);
  console.log(`\nrate-limit check benchmark: ${report.machine}; node ${report.node}; redis ${report.redis}`);
  console.log(`${report.seconds} s per case; sequential = 1 caller, concurrent = ${report.concurrency} callers; ${TENANTS} tenants\n`);
  const header = `${'case'.padEnd(30)} ${pad('RTT/chk', 8)} ${pad('cmds/chk', 8)} | ${pad('seq chk/s', 10)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} | ${pad('conc chk/s', 10)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)}`;
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const row of report.rows) {
    const s = row.sequential;
    const c = row.concurrent;
    console.log(
      `${row.name.padEnd(30)} ${pad(row.trips.roundTrips.toFixed(2), 8)} ${pad(row.trips.redisCommands.toFixed(2), 8)} | ${pad(s.perSecond.toFixed(0), 10)} ${pad(s.p50.toFixed(3), 7)} ${pad(s.p99.toFixed(3), 7)} | ${pad(c.perSecond.toFixed(0), 10)} ${pad(c.p50.toFixed(3), 7)} ${pad(c.p99.toFixed(3), 7)}`,
    );
  }
  const ours = base('ours, 2 windows (1 script)');
  for (const name of ['rlf, 2 limiters in sequence', 'rlf, 2 limiters in parallel']) {
    const theirs = base(name);
    const ratio = (a, b) => (a / b).toFixed(2);
    console.log(
      `\nours / ${name}: sequential throughput x${ratio(ours.sequential.perSecond, theirs.sequential.perSecond)}, p50 x${ratio(ours.sequential.p50, theirs.sequential.p50)}, p99 x${ratio(ours.sequential.p99, theirs.sequential.p99)}; ` +
        `concurrent throughput x${ratio(ours.concurrent.perSecond, theirs.concurrent.perSecond)}, p50 x${ratio(ours.concurrent.p50, theirs.concurrent.p50)}, p99 x${ratio(ours.concurrent.p99, theirs.concurrent.p99)}; ` +
        `round trips x${ratio(ours.trips.roundTrips, theirs.trips.roundTrips)}`,
    );
  }
  console.log('\nRTT/chk: commands sent by the client per check; cmds/chk: commands Redis executed per check, script internals included.');
}

async function waitReady(client) {
  if (client.status === 'ready') return;
  await new Promise((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
  });
}

async function redisVersion(admin) {
  const info = await admin.info('server');
  return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
}

await main();
