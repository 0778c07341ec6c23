import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { testNamespace } from '@tap/testkit';
import {
  createRateLimiter,
  type LimitRule,
  type RateLimitDecision,
  type RedisFailure,
} from '../src/index.js';
import { readyClient, waitUntil } from './support/clients.js';
import { startOwnRedis, type OwnRedis } from './support/redis-process.js';

const MINUTE = 60_000;
const TIMEOUT_MS = 80;
// Generous against a loaded 2-core machine, yet far below any hang: ioredis would otherwise
// queue or retry for seconds.
const FAST_MS = 400;

const openRule: LimitRule = { name: 'api-per-minute', limit: 2, windowMs: MINUTE, onRedisDown: 'open' };
const closedRule: LimitRule = {
  name: 'refresh-per-token',
  limit: 2,
  windowMs: MINUTE,
  onRedisDown: 'closed',
};
const localRule: LimitRule = { name: 'login-per-ip', limit: 3, windowMs: MINUTE, onRedisDown: 'local' };

let server: OwnRedis;
let redis: Redis;
const failures: RedisFailure[] = [];
let now = 1_700_000_000_000;

async function timed(
  run: () => Promise<RateLimitDecision>,
): Promise<{ decision: RateLimitDecision; ms: number }> {
  const started = performance.now();
  const decision = await run();
  return { decision, ms: performance.now() - started };
}

beforeAll(async () => {
  server = await startOwnRedis();
  redis = await readyClient(server.url, TIMEOUT_MS);
});

afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

describe('when Redis cannot be reached', () => {
  const limiter = (clock: () => number = () => now) =>
    createRateLimiter({
      redis,
      keyPrefix: testNamespace('ratelimit_down'),
      timeoutMs: TIMEOUT_MS,
      clock,
      breaker: { failures: 3, cooldownMs: 500 },
      onRedisFailure: (failure) => failures.push(failure),
    });

  it('applies each rule’s policy when Redis is killed mid-run, fails fast, and returns to Redis once it is back', async () => {
    const rl = limiter(Date.now);
    const rules = [openRule, closedRule, localRule];
    expect((await rl.consume('warm-up', [openRule])).source).toBe('redis');

    const log: Array<{ phase: string; policy: string; allowed: boolean; source: string; ms: number }> = [];
    let phase = 'up';
    const stop = Date.now() + 3_000;
    const traffic = (async () => {
      for (let i = 0; i < 2_000 && Date.now() < stop && phase !== 'done'; i += 1) {
        const rule = rules[i % rules.length]!;
        const { decision, ms } = await timed(() => rl.consume(`caller-${i % rules.length}`, [rule]));
        log.push({ phase, policy: rule.name, allowed: decision.allowed, source: decision.source, ms });
        await sleep(5);
      }
    })();

    await sleep(300);
    phase = 'down';
    await server.kill();
    await sleep(700);
    phase = 'restarting';
    await server.restart();
    await waitUntil(() => redis.status === 'ready', 5_000);
    await sleep(300);
    phase = 'done';
    await traffic;

    const down = log.filter((e) => e.phase === 'down' && e.source === 'fallback');
    expect(down.length).toBeGreaterThan(10);
    expect(Math.max(...log.map((e) => e.ms))).toBeLessThan(FAST_MS);
    expect(down.filter((e) => e.policy === 'api-per-minute').every((e) => e.allowed)).toBe(true);
    expect(down.filter((e) => e.policy === 'refresh-per-token').every((e) => !e.allowed)).toBe(true);
    const local = down.filter((e) => e.policy === 'login-per-ip');
    expect(local.filter((e) => e.allowed).length).toBeLessThanOrEqual(3);
    expect(log.filter((e) => e.phase === 'restarting').at(-1)?.source).toBe('redis');
    expect(failures.length).toBeGreaterThan(0);
  });

  it('open admits, closed refuses with Retry-After 1, local counts in-process against the limit', async () => {
    const rl = limiter();
    await server.kill();
    try {
      const open = await rl.consume('tenant', [openRule]);
      expect(open).toMatchObject({
        allowed: true,
        source: 'fallback',
        policy: 'api-per-minute',
        remaining: 2,
      });
      expect(open.failure?.code).toBe('REDIS_UNAVAILABLE');

      const closed = await rl.consume('token', [closedRule]);
      expect(closed).toMatchObject({
        allowed: false,
        source: 'fallback',
        policy: 'refresh-per-token',
        retryAfter: 1,
      });

      const local = [];
      for (let i = 0; i < 5; i += 1) local.push(await rl.consume('ip:1', [localRule]));
      expect(local.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
      expect(local.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
      expect(local[3]).toMatchObject({ policy: 'login-per-ip', retryAfter: 61 });
      now += 61_000;
      expect((await rl.consume('ip:1', [localRule])).allowed).toBe(true);

      // All or none holds in the fallback too: the closed rule refuses, so nothing is charged locally.
      const mixed = await rl.consume('ip:2', [localRule, closedRule]);
      expect(mixed).toMatchObject({ allowed: false, policy: 'refresh-per-token' });
      expect((await rl.peek('ip:2', [localRule])).windows[0]?.used).toBe(0);
    } finally {
      await server.restart();
      await waitUntil(() => redis.status === 'ready', 5_000);
    }
  });

  it('gives up on a hung Redis after the timeout, then skips it while the breaker is open', async () => {
    const rl = limiter();
    expect((await rl.consume('tenant', [openRule])).source).toBe('redis');
    server.pause();
    try {
      for (let i = 0; i < 3; i += 1) {
        const { decision, ms } = await timed(() => rl.consume('tenant', [openRule]));
        expect(decision).toMatchObject({ allowed: true, source: 'fallback' });
        expect(decision.failure?.code).toBe('REDIS_TIMEOUT');
        expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
        expect(ms).toBeLessThan(FAST_MS);
      }
      const { decision, ms } = await timed(() => rl.consume('tenant', [closedRule]));
      expect(decision).toMatchObject({ allowed: false, source: 'fallback' });
      expect(decision.failure?.code).toBe('REDIS_CIRCUIT_OPEN');
      expect(ms).toBeLessThan(20);
    } finally {
      server.resume();
    }
    now += 1_000;
    await waitUntil(async () => (await rl.consume('tenant', [openRule])).source === 'redis', 5_000);
  });
});
