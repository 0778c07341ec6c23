import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { infraUrls, testNamespace } from '@tap/testkit';
import { createRateLimiter, type LimitRule, type RateLimiter } from '../src/index.js';
import { readyClient } from './support/clients.js';

const MINUTE = 60_000;
const REPLICAS = 8;
const prefix = testNamespace('ratelimit_concurrency');
let clients: Redis[] = [];
let limiters: RateLimiter[] = [];

const rules = (perMinute: number, perDay: number): LimitRule[] => [
  { name: 'api-per-minute', limit: perMinute, windowMs: MINUTE, onRedisDown: 'open' },
  { name: 'api-per-day', limit: perDay, windowMs: 24 * 60 * MINUTE, subWindows: 96, onRedisDown: 'open' },
];

beforeAll(async () => {
  // One connection and one limiter per simulated gateway replica: Redis sees independent clients.
  clients = await Promise.all(
    Array.from({ length: REPLICAS }, () => readyClient(infraUrls().redisUrl, 5_000)),
  );
  limiters = clients.map((redis) => createRateLimiter({ redis, keyPrefix: prefix, timeoutMs: 5_000 }));
});

afterAll(async () => {
  const keys = await clients[0]!.keys(`${prefix}:*`);
  if (keys.length > 0) await clients[0]!.del(...keys);
  await Promise.all(clients.map((client) => client.quit()));
});

describe('concurrency across replicas', () => {
  it('admits exactly the limit out of 2,000 concurrent checks from 8 connections', async () => {
    const checks = Array.from({ length: 2_000 }, (_, i) =>
      limiters[i % REPLICAS]!.consume('tenant-hot', rules(100, 10_000)),
    );
    const decisions = await Promise.all(checks);
    expect(decisions.every((d) => d.source === 'redis')).toBe(true);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    const state = await limiters[0]!.peek('tenant-hot', rules(100, 10_000));
    expect(state.windows.map((w) => w.used)).toEqual([100, 100]);
  });

  it('admits exactly the day limit when the day window binds, and charges the minute window only for those', async () => {
    const checks = Array.from({ length: 1_000 }, (_, i) =>
      limiters[i % REPLICAS]!.consume('tenant-day', rules(500, 60)),
    );
    const decisions = await Promise.all(checks);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(new Set(decisions.filter((d) => !d.allowed).map((d) => d.policy))).toEqual(
      new Set(['api-per-day']),
    );
    const state = await limiters[0]!.peek('tenant-day', rules(500, 60));
    expect(state.windows.map((w) => w.used)).toEqual([60, 60]);
  });

  it('never exceeds the limit with mixed costs, and the counters hold exactly what was admitted', async () => {
    const costs = Array.from({ length: 1_500 }, (_, i) => 1 + ((i * 7) % 5));
    const decisions = await Promise.all(
      costs.map((cost, i) => limiters[i % REPLICAS]!.consume('tenant-cost', rules(250, 10_000), cost)),
    );
    const charged = decisions.reduce((sum, d, i) => sum + (d.allowed ? (costs[i] ?? 0) : 0), 0);
    expect(charged).toBeLessThanOrEqual(250);
    expect(charged).toBeGreaterThan(250 - 5);
    const state = await limiters[0]!.peek('tenant-cost', rules(250, 10_000));
    expect(state.windows.map((w) => w.used)).toEqual([charged, charged]);
  });

  it('keeps independent subjects independent under concurrency', async () => {
    const subjects = Array.from({ length: 20 }, (_, i) => `ip:10.0.0.${i}`);
    const rule: LimitRule[] = [{ name: 'login-per-ip', limit: 10, windowMs: MINUTE, onRedisDown: 'local' }];
    const decisions = await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        limiters[i % REPLICAS]!.consume(subjects[i % subjects.length]!, rule).then((d) => ({ i, d })),
      ),
    );
    for (const who of subjects.keys()) {
      expect(decisions.filter(({ i, d }) => i % subjects.length === who && d.allowed)).toHaveLength(10);
    }
  });
});
