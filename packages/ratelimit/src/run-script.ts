import type { Cluster, Redis } from 'ioredis';
import { RedisNotReadyError } from './redis-failure.js';
import { REFUND_SCRIPT, REFUND_SHA } from './refund-script.js';
import { SLIDING_WINDOW_SCRIPT, SLIDING_WINDOW_SHA } from './script.js';

/** A standalone ioredis client or a cluster client: the script's keys share one slot either way. */
export type RateLimitRedis = Redis | Cluster;

/**
 * Runs one of the limiter's scripts (the sliding window unless told) with EVALSHA. On NOSCRIPT (a restarted or failed-over Redis
 * forgot it, or SCRIPT FLUSH) it sends the script once with EVAL, which also caches it again,
 * so the next check is back to one EVALSHA. A client that is not ready gets nothing sent: that
 * keeps a client with an offline queue from queueing checks that would charge minutes later.
 */
export async function runScript(
  redis: RateLimitRedis,
  keys: readonly string[],
  args: readonly (string | number)[],
  script: { readonly text: string; readonly sha: string } = SLIDING_WINDOW,
): Promise<unknown> {
  if (redis.status !== 'ready') throw new RedisNotReadyError(`redis client is ${redis.status}`);
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await redis.eval(script.text, keys.length, ...keys, ...args);
  }
}

const SLIDING_WINDOW = { text: SLIDING_WINDOW_SCRIPT, sha: SLIDING_WINDOW_SHA };

/** The refund script (see `refund-script.ts`), for {@link runScript}. */
export const REFUND = { text: REFUND_SCRIPT, sha: REFUND_SHA };
