import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisNow } from './clients.js';

/**
 * Waits until Redis's clock is at `fromMs`..`toMs` (exclusive) into a `periodMs` period, and
 * returns that instant. Tests use it to place bursts just before or after a boundary of Redis's
 * sub-windows, whatever this process's clock says. Bounded: at most three periods.
 */
export async function waitForPhase(
  redis: Redis,
  periodMs: number,
  fromMs: number,
  toMs: number,
): Promise<number> {
  const deadline = Date.now() + 3 * periodMs;
  while (Date.now() < deadline) {
    const now = await redisNow(redis);
    const phase = now % periodMs;
    if (phase >= fromMs && phase < toMs) return now;
    const wait = (fromMs - phase + periodMs) % periodMs;
    await sleep(Math.max(1, Math.min(wait, periodMs / 10)));
  }
  throw new Error(`Redis clock never reached phase ${fromMs}-${toMs} of ${periodMs} ms`);
}

/** Waits until Redis's clock reaches `epochMs` (plus `marginMs`). */
export async function waitForRedisTime(redis: Redis, epochMs: number, marginMs = 20): Promise<void> {
  const deadline = Date.now() + Math.max(0, epochMs - (await redisNow(redis))) + 5_000;
  while (Date.now() < deadline) {
    const left = epochMs + marginMs - (await redisNow(redis));
    if (left <= 0) return;
    await sleep(Math.min(left, 200));
  }
  throw new Error(`Redis clock never reached ${epochMs}`);
}
