import type { Cluster, Redis } from 'ioredis';
import { RedisNotReadyError } from './redis-failure.js';
import { SLIDING_WINDOW_SCRIPT, SLIDING_WINDOW_SHA } from './script.js';

/** A standalone ioredis client or a cluster client: the script's keys share one slot either way. */
export type RateLimitRedis = Redis | Cluster;

/**
 * Runs the sliding-window script with EVALSHA. On NOSCRIPT (a restarted or failed-over Redis
 * forgot it, or SCRIPT FLUSH) it sends the script once with EVAL, which also caches it again,
 * so the next check is back to one EVALSHA. A client that is not ready gets nothing sent: that
 * keeps a client with an offline queue from queueing checks that would charge minutes later.
 */
export async function runScript(
  redis: RateLimitRedis,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  if (redis.status !== 'ready') throw new RedisNotReadyError(`redis client is ${redis.status}`);
  try {
    return await redis.evalsha(SLIDING_WINDOW_SHA, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await redis.eval(SLIDING_WINDOW_SCRIPT, keys.length, ...keys, ...args);
  }
}
