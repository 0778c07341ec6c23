import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_REQUEST_DAYS_TTL_S, apiRequestDaysKey } from '@tap/contracts';
import { createRateLimitRedis } from '@tap/ratelimit';
import { infraUrls } from '@tap/testkit';
import { createApiRequestTally } from '../src/quota/api-request-tally.js';

let redis: ReturnType<typeof createRateLimitRedis>;
beforeAll(async () => {
  redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 2_000 });
  for (let waited = 0; redis.status !== 'ready' && waited < 10_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
});
afterAll(async () => {
  await redis.quit();
});

describe('the API request tally', () => {
  it("adds each tenant's requests of a UTC day to that day's hash, in batches, with an expiry", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const day = '2026-11-02';
    const key = apiRequestDaysKey(day);
    // A schedule far off: the test flushes by hand.
    const tally = createApiRequestTally(redis, { flushMs: 3_600_000 });
    try {
      for (let i = 0; i < 3; i += 1) tally.count(a, new Date(`${day}T10:00:00.000Z`));
      tally.count(b, new Date(`${day}T23:59:59.999Z`));
      tally.count(a, new Date('2026-11-03T00:00:00.000Z'));
      expect(await redis.hget(key, a)).toBeNull();
      await tally.flush();
      expect([await redis.hget(key, a), await redis.hget(key, b)]).toEqual(['3', '1']);
      expect(await redis.hget(apiRequestDaysKey('2026-11-03'), a)).toBe('1');
      const ttl = await redis.ttl(key);
      expect(ttl > 0 && ttl <= API_REQUEST_DAYS_TTL_S).toBe(true);
      tally.count(a, new Date(`${day}T12:00:00.000Z`));
      await tally.stop();
      expect(await redis.hget(key, a)).toBe('4');
    } finally {
      await redis.hdel(key, a, b);
      await redis.hdel(apiRequestDaysKey('2026-11-03'), a);
    }
  });
});
