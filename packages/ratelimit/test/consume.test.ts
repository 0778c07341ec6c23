import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { infraUrls, testNamespace } from '@tap/testkit';
import {
  counterKey,
  createRateLimiter,
  RateLimitConfigError,
  resolveRule,
  type LimitRule,
  type RateLimiter,
} from '../src/index.js';
import { readyClient, redisNow } from './support/clients.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const prefix = testNamespace('ratelimit');
let redis: Redis;
let limiter: RateLimiter;
let subjects = 0;
const subject = (): string => `tenant-${(subjects += 1)}`;

const perMinute = (limit: number): LimitRule => ({
  name: 'api-per-minute',
  limit,
  windowMs: MINUTE,
  onRedisDown: 'open',
});
const perDay = (limit: number): LimitRule => ({
  name: 'api-per-day',
  limit,
  windowMs: DAY,
  subWindows: 24,
  onRedisDown: 'open',
});

beforeAll(async () => {
  redis = await readyClient(infraUrls().redisUrl);
  // These tests assert what Redis holds; the default 100 ms deadline would, on a loaded machine,
  // send a call to the local fallback and the assertion would read an untouched Redis.
  limiter = createRateLimiter({ redis, keyPrefix: prefix, timeoutMs: 5_000 });
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('consume against a real Redis', () => {
  it('admits up to the limit, counting down remaining, then refuses with the policy and a Retry-After', async () => {
    const who = subject();
    const remaining: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const decision = await limiter.consume(who, [perMinute(3)]);
      expect(decision).toMatchObject({
        allowed: true,
        limit: 3,
        retryAfter: 0,
        policy: 'api-per-minute',
        source: 'redis',
      });
      remaining.push(decision.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const refused = await limiter.consume(who, [perMinute(3)]);
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0, policy: 'api-per-minute' });
    expect(Number.isInteger(refused.retryAfter)).toBe(true);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(61);
  });

  it('charges cost units, refuses a cost that does not fit while a smaller one still does', async () => {
    const who = subject();
    expect((await limiter.consume(who, [perMinute(10)], 7)).remaining).toBe(3);
    const tooBig = await limiter.consume(who, [perMinute(10)], 4);
    expect(tooBig.allowed).toBe(false);
    expect(tooBig.windows[0]?.used).toBe(7);
    const fits = await limiter.consume(who, [perMinute(10)], 3);
    expect(fits).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refuses a cost above the limit, and a limit of 0, with the window length as Retry-After', async () => {
    const who = subject();
    expect(await limiter.consume(who, [perMinute(5)], 6)).toMatchObject({
      allowed: false,
      retryAfter: 60,
      remaining: 5,
    });
    const none: LimitRule = {
      name: 'api-per-day',
      limit: 0,
      windowMs: DAY,
      subWindows: 24,
      onRedisDown: 'closed',
    };
    expect(await limiter.consume(who, [none])).toMatchObject({
      allowed: false,
      retryAfter: 86_400,
      policy: 'api-per-day',
    });
  });

  it('charges all windows or none: a refusal by the day window charges the minute window nothing', async () => {
    const who = subject();
    const rules = [perMinute(5), perDay(3)];
    for (let i = 0; i < 3; i += 1) expect((await limiter.consume(who, rules)).allowed).toBe(true);
    for (let i = 0; i < 4; i += 1) {
      expect(await limiter.consume(who, rules)).toMatchObject({ allowed: false, policy: 'api-per-day' });
    }
    const minuteOnly = await limiter.peek(who, [perMinute(5)]);
    expect(minuteOnly.windows[0]?.used).toBe(3);
    const stored = await redis.hgetall(counterKey(prefix, who, resolveRule(perMinute(5))));
    expect(stored['t']).toBe('3');
  });

  it('reports the window with the least remaining when admitted, and the refusing one with its own Retry-After', async () => {
    const who = subject();
    const rules = [perMinute(2), perDay(100)];
    const first = await limiter.consume(who, rules);
    expect(first).toMatchObject({ allowed: true, policy: 'api-per-minute', limit: 2, remaining: 1 });
    expect(first.windows.map((w) => [w.policy, w.remaining])).toEqual([
      ['api-per-minute', 1],
      ['api-per-day', 99],
    ]);
    await limiter.consume(who, rules);
    const refused = await limiter.consume(who, rules);
    expect(refused).toMatchObject({ allowed: false, policy: 'api-per-minute', limit: 2 });
    expect(refused.retryAfter).toBeLessThanOrEqual(61);
    expect(refused.windows[1]).toMatchObject({ policy: 'api-per-day', fits: true, used: 2 });
  });

  it('when several windows refuse, names the one that refuses longest', async () => {
    const who = subject();
    const rules = [perMinute(1), perDay(1)];
    await limiter.consume(who, rules);
    const refused = await limiter.consume(who, rules);
    expect(refused.policy).toBe('api-per-day');
    expect(refused.retryAfter).toBeGreaterThan(60 * 60);
  });

  it('peek says whether a request would pass and charges nothing', async () => {
    const who = subject();
    await limiter.consume(who, [perMinute(2)], 2);
    expect(await limiter.peek(who, [perMinute(2)])).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.peek(who, [perDay(5)])).toMatchObject({ allowed: true, remaining: 5 });
    expect(await redis.exists(counterKey(prefix, who, resolveRule(perDay(5))))).toBe(0);
  });

  it('puts a TTL on every key, ending when its newest sub-window leaves the window', async () => {
    const who = subject();
    await limiter.consume(who, [perMinute(5), perDay(5)]);
    const keys = await redis.keys(`${prefix}:{${who}}:*`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      const day = key.includes('api-per-day');
      expect(ttl).toBeGreaterThan(day ? DAY : MINUTE);
      expect(ttl).toBeLessThanOrEqual(day ? DAY + DAY / 24 : MINUTE + 1_000);
    }
  });

  it('keeps memory per subject small: thousands of requests leave one counter per sub-window, not one entry per request', async () => {
    const who = subject();
    const rules = [perMinute(100_000), perDay(100_000)];
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(Array.from({ length: 500 }, () => limiter.consume(who, rules)));
    }
    for (const rule of rules.map(resolveRule)) {
      const key = counterKey(prefix, who, rule);
      const fields = await redis.hgetall(key);
      expect(fields['t']).toBe('5000');
      // At most subWindows + 1 sub-window fields, plus the total `t` and the newest index `n`.
      expect(Object.keys(fields).length).toBeLessThanOrEqual(rule.subWindows + 3);
      expect(Number(await redis.call('MEMORY', 'USAGE', key))).toBeLessThan(1_024);
    }
  });

  it('keeps all keys of a subject under one hash tag, even when the subject contains braces', async () => {
    const who = 'ip:{10.0.0.1}%';
    await limiter.consume(who, [perMinute(5), perDay(5)]);
    const keys = await redis.keys(`${prefix}:*ip:*`);
    expect(keys.sort()).toEqual([
      `${prefix}:{ip:%7B10.0.0.1%7D%25}:api-per-day:86400000/24`,
      `${prefix}:{ip:%7B10.0.0.1%7D%25}:api-per-minute:60000/60`,
    ]);
  });

  it('keeps working after Redis forgets the script (NOSCRIPT): it sends it once with EVAL', async () => {
    const who = subject();
    await limiter.consume(who, [perMinute(5)]);
    await redis.script('FLUSH');
    expect(await limiter.consume(who, [perMinute(5)])).toMatchObject({
      allowed: true,
      remaining: 3,
      source: 'redis',
    });
    expect(await limiter.consume(who, [perMinute(5)])).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('decides on the Redis clock: limiters whose own clocks are hours apart agree', async () => {
    const who = subject();
    const ahead = createRateLimiter({
      redis,
      keyPrefix: prefix,
      timeoutMs: 5_000,
      clock: () => Date.now() + 3 * 60 * MINUTE,
    });
    const behind = createRateLimiter({
      redis,
      keyPrefix: prefix,
      timeoutMs: 5_000,
      clock: () => Date.now() - 3 * 60 * MINUTE,
    });
    const admitted: boolean[] = [];
    for (let i = 0; i < 6; i += 1)
      admitted.push((await (i % 2 === 0 ? ahead : behind).consume(who, [perMinute(4)])).allowed);
    expect(admitted).toEqual([true, true, true, true, false, false]);
    const decision = await behind.peek(who, [perMinute(4)]);
    const now = await redisNow(redis);
    expect(Math.abs(decision.at - now)).toBeLessThan(1_000);
    expect(decision.resetAt - decision.at).toBeGreaterThan(MINUTE - 1_000);
    expect(decision.resetAt - decision.at).toBeLessThanOrEqual(MINUTE + 1_000);
  });

  it('rejects invalid input with typed errors before touching Redis', async () => {
    const codeOf = async (run: () => Promise<unknown>): Promise<string | undefined> => {
      try {
        await run();
      } catch (error) {
        if (error instanceof RateLimitConfigError) return error.code;
        throw error;
      }
      return undefined;
    };
    expect(await codeOf(() => limiter.consume(subject(), [perMinute(5)], 0))).toBe('RATE_LIMIT_INVALID_COST');
    expect(await codeOf(() => limiter.consume(subject(), [perMinute(5)], 1.5))).toBe(
      'RATE_LIMIT_INVALID_COST',
    );
    expect(await codeOf(() => limiter.consume('', [perMinute(5)]))).toBe('RATE_LIMIT_INVALID_SUBJECT');
    expect(await codeOf(() => limiter.consume(subject(), []))).toBe('RATE_LIMIT_INVALID_RULES');
    expect(await codeOf(() => limiter.consume(subject(), [perMinute(5), perMinute(6)]))).toBe(
      'RATE_LIMIT_INVALID_RULES',
    );
    expect(await codeOf(() => limiter.consume(subject(), [{ ...perMinute(5), windowMs: 1_001 }]))).toBe(
      'RATE_LIMIT_INVALID_RULE',
    );
    expect(() => createRateLimiter({ redis, keyPrefix: 'a{b}' })).toThrow(RateLimitConfigError);
  });
});
