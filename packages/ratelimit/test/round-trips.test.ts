import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { testNamespace } from '@tap/testkit';
import { createRateLimiter, type LimitRule } from '../src/index.js';
import { readyClient } from './support/clients.js';
import { startOwnRedis, type OwnRedis } from './support/redis-process.js';

const MINUTE = 60_000;
let server: OwnRedis;
let redis: Redis;
let admin: Redis;

/** Commands the script itself runs inside Redis: commandstats count them, but they are no round trip. */
const INSIDE_SCRIPT = new Set(['time', 'hmget', 'hset', 'hdel', 'del', 'pexpire']);

/**
 * Commands sent by clients since the last CONFIG RESETSTAT (without the admin connection's own
 * INFO and CONFIG), plus `scriptRuns`: the script calls TIME exactly once per run.
 */
async function commandCalls(): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    const [, name, count] = match;
    if (!name || !count || /^(info|config)/.test(name)) continue;
    if (name === 'time') calls['scriptRuns'] = Number(count);
    else if (!INSIDE_SCRIPT.has(name)) calls[name] = Number(count);
  }
  return calls;
}

beforeAll(async () => {
  // Its own server: commandstats are server-wide, and other test files share the common one.
  server = await startOwnRedis();
  redis = await readyClient(server.url);
  admin = await readyClient(server.url);
});

afterAll(async () => {
  redis.disconnect();
  admin.disconnect();
  await server.stop();
});

describe('round trips', () => {
  const windows = (count: number): LimitRule[] =>
    [
      { name: 'per-second', limit: 1_000_000, windowMs: 1_000, subWindows: 10 },
      { name: 'per-minute', limit: 1_000_000, windowMs: MINUTE },
      { name: 'per-hour', limit: 1_000_000, windowMs: 60 * MINUTE },
      { name: 'per-day', limit: 1_000_000, windowMs: 24 * 60 * MINUTE, subWindows: 24 },
    ]
      .slice(0, count)
      .map((rule) => ({ ...rule, onRedisDown: 'open' as const }));

  it.each([1, 2, 4])(
    'sends exactly one EVALSHA per check with %i window(s), and nothing else',
    async (count) => {
      const limiter = createRateLimiter({
        redis,
        keyPrefix: testNamespace('ratelimit_rtt'),
        timeoutMs: 1_000,
      });
      await limiter.consume('warm', windows(count));
      await admin.config('RESETSTAT');
      for (let i = 0; i < 100; i += 1) await limiter.consume(`tenant-${i % 7}`, windows(count));
      expect(await commandCalls()).toEqual({ evalsha: 100, scriptRuns: 100 });
    },
  );

  it('after SCRIPT FLUSH, pays one extra EVAL once, then is back to one EVALSHA', async () => {
    const limiter = createRateLimiter({ redis, keyPrefix: testNamespace('ratelimit_rtt'), timeoutMs: 1_000 });
    await admin.script('FLUSH');
    await admin.config('RESETSTAT');
    for (let i = 0; i < 10; i += 1) await limiter.consume('tenant', windows(2));
    expect(await commandCalls()).toEqual({ evalsha: 10, eval: 1, scriptRuns: 10 });
  });
});
