import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { infraUrls, testNamespace } from '@tap/testkit';
import { createRateLimiter, type LimitRule, type RateLimiter } from '../src/index.js';
import { readyClient } from './support/clients.js';

const MINUTE = 60_000;
const prefix = testNamespace('ratelimit_refund');
const failures: LimitRule[] = [
  { name: 'login-fail', limit: 10, windowMs: 15 * MINUTE, subWindows: 15, onRedisDown: 'local' },
];
let redis: Redis;
let limiter: RateLimiter;

beforeAll(async () => {
  redis = await readyClient(infraUrls().redisUrl, 5_000);
  limiter = createRateLimiter({ redis, keyPrefix: prefix, timeoutMs: 5_000 });
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const usedOf = async (subject: string) => (await limiter.peek(subject, failures)).windows[0]?.used;

describe('charge before the work, refund on success', () => {
  it('admits exactly the limit of 30 concurrent charges, and a refund of each admitted one empties the window', async () => {
    const decisions = await Promise.all(
      Array.from({ length: 30 }, () => limiter.consume('acct-parallel', failures)),
    );
    const admitted = decisions.filter((d) => d.allowed);
    expect(admitted).toHaveLength(10);
    expect(await usedOf('acct-parallel')).toBe(10);
    await Promise.all(admitted.map((d) => limiter.refund('acct-parallel', failures, d)));
    expect(await usedOf('acct-parallel')).toBe(0);
  });

  it('gives back nothing for a refused decision', async () => {
    const charges = await Promise.all(
      Array.from({ length: 11 }, () => limiter.consume('acct-refused', failures)),
    );
    const refused = charges.find((d) => !d.allowed);
    expect(refused).toBeDefined();
    await limiter.refund('acct-refused', failures, refused!);
    expect(await usedOf('acct-refused')).toBe(10);
  });

  it('never goes below zero when one charge is refunded twice', async () => {
    const first = await limiter.consume('acct-twice', failures);
    await limiter.consume('acct-twice', failures);
    await limiter.refund('acct-twice', failures, first);
    await limiter.refund('acct-twice', failures, first);
    await limiter.refund('acct-twice', failures, first);
    expect(await usedOf('acct-twice')).toBe(0);
  });

  it('refunds a charge the in-process fallback took while Redis was away', async () => {
    const offline = createRateLimiter({
      redis: { status: 'end' } as unknown as Redis,
      keyPrefix: prefix,
      timeoutMs: 100,
    });
    const charges = await Promise.all(
      Array.from({ length: 12 }, () => offline.consume('acct-local', failures)),
    );
    expect(charges.filter((d) => d.allowed && d.source === 'fallback')).toHaveLength(10);
    await offline.refund(
      'acct-local',
      failures,
      charges.find((d) => d.allowed)!,
    );
    expect((await offline.consume('acct-local', failures)).allowed).toBe(true);
    expect((await offline.consume('acct-local', failures)).allowed).toBe(false);
  });
});
