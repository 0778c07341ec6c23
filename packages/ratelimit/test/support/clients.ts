import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRateLimitRedis } from '../../src/index.js';

/** A fail-fast client (as services build it), resolved once it is ready. */
export async function readyClient(url: string, commandTimeoutMs = 1_000): Promise<Redis> {
  const redis = createRateLimitRedis(url, { commandTimeout: commandTimeoutMs });
  redis.on('error', () => undefined);
  if (redis.status !== 'ready') await once(redis, 'ready');
  return redis;
}

/** Polls `condition` every 20 ms for at most `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(20);
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

/** Milliseconds from now until Redis's clock reaches `epochMs` (Redis's clock, read now). */
export async function msUntilRedisTime(redis: Redis, epochMs: number): Promise<number> {
  return epochMs - (await redisNow(redis));
}

/** Redis's clock in epoch ms. */
export async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
}
