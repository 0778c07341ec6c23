import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { createRateLimitRedis } from '@tap/ratelimit';
import { metricsRoute, readSample } from '@tap/telemetry';
import { infraUrls, testNamespace } from '@tap/testkit';
import { observeRedisCommands } from '../src/redis-command-metrics.js';

const redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 5_000 });
// The client queues nothing while it connects (fail-fast, as in production): wait for it.
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready');
});
afterAll(async () => {
  await redis.quit();
});

async function redisSamples(operation: string, outcome: 'ok' | 'error'): Promise<number> {
  const body = (await metricsRoute()('/metrics'))?.body ?? '';
  return (
    readSample(body, 'db_client_operation_duration_seconds_count', { system: 'redis', operation, outcome }) ??
    0
  );
}

describe('Redis command metrics', () => {
  it("times a real client's replies and errors from ioredis's diagnostics channel, and stops when asked", async () => {
    const key = `${testNamespace('redis-metrics')}:k`;
    const stop = observeRedisCommands();
    const before = { exists: await redisSamples('exists', 'ok'), incr: await redisSamples('incr', 'error') };
    await redis.exists(key);
    await redis.set(key, 'not a number');
    await expect(redis.incr(key)).rejects.toThrow();
    expect(await redisSamples('exists', 'ok')).toBe(before.exists + 1);
    expect(await redisSamples('incr', 'error')).toBe(before.incr + 1);
    stop();
    await redis.exists(key);
    expect(await redisSamples('exists', 'ok')).toBe(before.exists + 1);
    await redis.del(key);
  });
});
