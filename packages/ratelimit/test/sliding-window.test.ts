import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { infraUrls, testNamespace } from '@tap/testkit';
import {
  counterKey,
  createRateLimiter,
  resolveRule,
  type LimitRule,
  type RateLimitDecision,
  type RateLimiter,
} from '../src/index.js';
import { readyClient } from './support/clients.js';
import { waitForPhase, waitForRedisTime } from './support/phase.js';

const prefix = testNamespace('ratelimit_sliding');
let redis: Redis;
let limiter: RateLimiter;
let subjects = 0;
const subject = (): string => `subject-${(subjects += 1)}`;

// A 2 s window in four 500 ms sub-windows: short enough for real time, long enough for margins.
const WINDOW_MS = 2_000;
const SUB_MS = 500;
const rule = (limit: number): LimitRule => ({
  name: 'short',
  limit,
  windowMs: WINDOW_MS,
  subWindows: 4,
  onRedisDown: 'closed',
});

async function burst(
  who: string,
  rules: readonly LimitRule[],
  count: number,
  cost = 1,
): Promise<RateLimitDecision[]> {
  return Promise.all(Array.from({ length: count }, () => limiter.consume(who, rules, cost)));
}
const admitted = (decisions: readonly RateLimitDecision[]): number =>
  decisions.filter((d) => d.allowed).length;

beforeAll(async () => {
  redis = await readyClient(infraUrls().redisUrl);
  limiter = createRateLimiter({ redis, keyPrefix: prefix, timeoutMs: 1_000 });
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('the sliding window, on Redis time', () => {
  it('does not double the allowance for a burst at the end of one window and the start of the next', async () => {
    const who = subject();
    await waitForPhase(redis, WINDOW_MS, WINDOW_MS - 350, WINDOW_MS - 200);
    expect(admitted(await burst(who, [rule(10)], 10))).toBe(10);
    await waitForPhase(redis, WINDOW_MS, 50, 250);
    const second = await burst(who, [rule(10)], 10);
    expect(admitted(second)).toBe(0);
    expect(second[0]?.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('does not double it across a sub-window boundary either: the partly expired sub-window counts in full', async () => {
    const who = subject();
    // The burst lands late in a sub-window; the retry lands just after that sub-window is a full
    // window behind. A count of only the last N sub-windows would admit 10 more here: 20 within 2 s.
    await waitForPhase(redis, SUB_MS, 300, 420);
    const first = await burst(who, [rule(10)], 10);
    expect(admitted(first)).toBe(10);
    const firstAt = Math.min(...first.map((d) => d.at));
    await waitForRedisTime(redis, (Math.floor(firstAt / SUB_MS) + 4) * SUB_MS, 30);
    const second = await burst(who, [rule(10)], 10);
    expect(admitted(second)).toBe(0);
    const retryAt = second[0]!.windows[0]!.retryAt!;
    expect(retryAt).toBe((Math.floor(firstAt / SUB_MS) + 5) * SUB_MS);
    expect(retryAt - Math.max(...first.map((d) => d.at))).toBeGreaterThanOrEqual(WINDOW_MS);

    await waitForRedisTime(redis, retryAt, 20);
    const third = await burst(who, [rule(10)], 12);
    expect(admitted(third)).toBe(10);
  });

  it('slides: units come back one sub-window at a time, not all at once at a fixed boundary', async () => {
    const who = subject();
    await waitForPhase(redis, SUB_MS, 50, 200);
    const charged: RateLimitDecision[] = [];
    for (let i = 0; i < 4; i += 1) {
      charged.push(await limiter.consume(who, [rule(4)]));
      if (i < 3) await sleep(SUB_MS);
    }
    expect(charged.every((d) => d.allowed)).toBe(true);
    const full = await limiter.consume(who, [rule(4)]);
    expect(full.allowed).toBe(false);
    const oldest = Math.floor(charged[0]!.at / SUB_MS);
    expect(full.windows[0]!.retryAt).toBe((oldest + 5) * SUB_MS);
    expect(full.resetAt).toBe((Math.floor(charged[3]!.at / SUB_MS) + 5) * SUB_MS);

    await waitForRedisTime(redis, full.windows[0]!.retryAt!, 20);
    const afterOne = await burst(who, [rule(4)], 4);
    expect(admitted(afterOne)).toBe(1);
  });

  it('never admits more than the limit in any window-long interval of Redis time, under random concurrent traffic', async () => {
    const who = subject();
    const limit = 15;
    const windowMs = 1_000;
    const subMs = 200;
    const rules: LimitRule[] = [{ name: 'random', limit, windowMs, subWindows: 5, onRedisDown: 'closed' }];
    const clients = await Promise.all(Array.from({ length: 4 }, () => readyClient(infraUrls().redisUrl)));
    const limiters = clients.map((client) =>
      createRateLimiter({ redis: client, keyPrefix: prefix, timeoutMs: 1_000 }),
    );
    const log: Array<{ at: number; cost: number; allowed: boolean }> = [];
    const stopAt = Date.now() + 2_500;
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    await Promise.all(
      limiters.map(async (one) => {
        for (let round = 0; round < 500 && Date.now() < stopAt; round += 1) {
          const size = 1 + Math.floor(random() * 6);
          const costs = Array.from({ length: size }, () => 1 + Math.floor(random() * 3));
          const decisions = await Promise.all(costs.map((cost) => one.consume(who, rules, cost)));
          decisions.forEach((d, i) => log.push({ at: d.at, cost: costs[i] ?? 0, allowed: d.allowed }));
          await sleep(Math.floor(random() * 80));
        }
      }),
    );
    // The hash stayed small and consistent while sub-windows came and went: at most
    // subWindows + 1 live sub-windows, within n - 5 .. n and not below o, and `t` is their sum.
    // The key expires a window after its newest charge, and on a loaded machine the traffic's
    // last charge may already be that old: charge once more (unlogged: it can only lower what
    // the log shows admitted) and read at once.
    const key = counterKey(prefix, who, resolveRule(rules[0]!));
    let stored: Record<string, string> = {};
    for (let attempt = 0; attempt < 5 && stored['t'] === undefined; attempt += 1) {
      await limiters[0]!.consume(who, rules, 1);
      stored = await redis.hgetall(key);
    }
    await Promise.all(clients.map((client) => client.quit()));
    expect(stored['t']).toBeDefined();
    const { t, n, o, ...counters } = stored;
    const indexes = Object.keys(counters).map(Number);
    expect(indexes.length).toBeLessThanOrEqual(6);
    expect(Number(t)).toBe(Object.values(counters).reduce((sum, units) => sum + Number(units), 0));
    expect(indexes.every((index) => index >= Number(n) - 5 && index <= Number(n))).toBe(true);
    if (o !== undefined) expect(indexes.every((index) => index >= Number(o))).toBe(true);

    const admittedIn = (from: number, to: number): number =>
      log.filter((e) => e.allowed && e.at >= from && e.at <= to).reduce((sum, e) => sum + e.cost, 0);
    let busiest = 0;
    for (const entry of log) {
      if (entry.allowed) {
        busiest = Math.max(busiest, admittedIn(entry.at - windowMs, entry.at));
      } else {
        // A refusal is never spurious: the window plus one sub-window really was full.
        expect(admittedIn(entry.at - windowMs - subMs, entry.at) + entry.cost).toBeGreaterThan(limit);
      }
    }
    expect(busiest).toBeLessThanOrEqual(limit);
    expect(busiest).toBeGreaterThanOrEqual(limit - 2);
    expect(log.some((e) => !e.allowed)).toBe(true);
  });
});
